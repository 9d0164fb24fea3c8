/**
 * Legalize (src/ir/passes/legalize.ts): a target record that lacks a capability refuses, with
 * a located GK7008, what a program uses of it; CUDA lacks nothing. The test targets are CUDA's
 * record with one capability taken away, and the WGSL backend's record.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CUDA_TARGET, cudaTargetFor } from "../../../src/codegen/cuda/target.js";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { legalize } from "../../../src/ir/passes/legalize.js";
import type { Capability, Target } from "../../../src/ir/target.js";
import { memoryHost } from "../../../src/load/program.js";
import { frontEnd } from "../../../src/pipeline.js";
import { diagnosticLines, irOf } from "../../helpers.js";

function lacking(...missing: Capability[]): Target {
  const capabilities = { ...CUDA_TARGET.capabilities };
  for (const c of missing) capabilities[c] = false;
  return { ...CUDA_TARGET, name: "TestGPU", capabilities };
}

function onTarget(src: string, target: Target) {
  return frontEnd("test.gk", { host: memoryHost({ "test.gk": src }), target });
}

const F64_KERNEL = `device_kernel k(n: i32, out: global<f32>) {
  const i = globalId.x;
  if (i < n) {
    let d = f64(i) * 0.5;
    out[i] = f32(sqrt(d));
  }
}
`;

describe("legalize", () => {
  it("refuses f64 on a target without it, at its first use, once", () => {
    const r = onTarget(F64_KERNEL, lacking("f64"));
    expect(r.ir).toBeUndefined();
    expect(diagnosticLines(r)).toEqual(["GK7008 4:5 the TestGPU target has no f64, which this program uses here"]);
  });

  it("reports each missing capability at its own first use, in source order", () => {
    const src = `device_kernel k(out: global<i64>, h: global<f16>) {
  out[0] = i64(shfl(i32(1), 0));
  h[0] = h[1];
}
`;
    const lines = diagnosticLines(onTarget(src, lacking("i64", "halves", "warpOperations")));
    expect(lines.map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(["GK7008 1:17", "GK7008 1:35", "GK7008 2:16"]);
    expect(lines[2]).toContain("the TestGPU target has no warp operations");
  });

  it("leaves the IR of a program that uses nothing the target lacks", () => {
    const src = "device_kernel k(n: i32, out: global<f32>) {\n  if (globalId.x < n) { out[globalId.x] = 1.0; }\n}\n";
    expect(onTarget(src, lacking("f64", "i64", "halves", "smallInts", "warpOperations", "dynamicShared", "views", "references", "atomics", "memoryOrdering")).diagnostics).toEqual([]);
  });

  it("finds nothing to refuse for CUDA in any example", () => {
    for (const f of readdirSync("examples").filter((x) => x.endsWith(".gk"))) {
      const r = frontEnd(join("examples", f), { after: "fold" });
      expect(r.ir, f).toBeDefined();
      expect(legalize(r.ir!, CUDA_TARGET), f).toEqual([]);
    }
    expect(legalize(irOf(F64_KERNEL), CUDA_TARGET)).toEqual([]);
  });
});

describe("legalize: tensor cores", () => {
  const MMA = `device_kernel k(A: readonly global<u32x4>, B: readonly global<u32x2>, D: global<f32x4>) {
  D[laneId] = mma_m16n8k16_f16(A[laneId], B[laneId], D[laneId]);
}
`;
  it("refuses mma on a CUDA GPU before sm_80, located, and lets sm_80 and later have it", () => {
    const r = onTarget(MMA, cudaTargetFor(75));
    expect(r.ir).toBeUndefined();
    expect(diagnosticLines(r)).toEqual(["GK7008 2:15 the CUDA sm_75 target has no tensor cores (mma_..., for NVIDIA sm_80 and later), which this program uses here"]);
    expect(diagnosticLines(onTarget(MMA, cudaTargetFor(80)))).toEqual([]);
    expect(diagnosticLines(onTarget(MMA, lacking("warpOperations")))).toEqual([]);
  });
});

describe("legalize: the WGSL target (src/codegen/wgsl/target.ts)", () => {
  it("refuses bools in global and constant memory, and not in shared or local memory or as parameters", () => {
    const src = `struct S { a: f32, on: bool }
device_kernel k(flag: bool, s: S, flags: global<bool>, out: global<f32>) {
  shared seen: bool[4];
  let mine: bool[2] = [true, false];
  seen[0] = flag && mine[0] && s.on;
  out[0] = f32(flags[0]);
}
device_kernel m(ss: global<S>) { ss[0].a = 1.0; }
`;
    expect(diagnosticLines(onTarget(src, WGSL_TARGET))).toEqual([
      "GK7008 2:35 the WGSL target has no bool elements in global memory (alone or in a struct), which this program uses here",
    ]);
    expect(diagnosticLines(onTarget(src.replace(/, flags: global<bool>/, "").replace("f32(flags[0])", "1.0"), WGSL_TARGET))).toEqual([
      "GK7008 8:17 the WGSL target has no bool elements in global memory (alone or in a struct), which this program uses here",
    ]);
  });

  it("refuses atomicAdd of f16x2 and bf16x2 as the halves WGSL lacks, at the kernel's first half (a shared array declared in the body: that line)", () => {
    const src = `device_kernel k(out: global<u32>, n: i32) {
  shared acc: bf16x2[4];
  atomicAdd(acc, n, bf16x2(1.0));
  out[0] = bitcast<u32>(acc[0]);
}
`;
    expect(diagnosticLines(onTarget(src, WGSL_TARGET))).toEqual(["GK7008 2:10 the WGSL target has no half-precision floats (f16, bf16), which this program uses here"]);
  });

  it("refuses the math functions it has no counterpart of, each at its first use", () => {
    const src = `device_kernel k(x: f32, out: global<f32>) {
  out[0] = erf(x) + log1p(x) + erf(x * 2.0);
  out[1] = sqrt(x) + log10(x);
}
`;
    expect(diagnosticLines(onTarget(src, WGSL_TARGET))).toEqual([
      "GK7008 2:12 the WGSL target has no erf (WGSL has no such function, and a formula of its functions would lose the accuracy it exists for), which this program uses here",
      "GK7008 2:21 the WGSL target has no log1p (WGSL has no such function, and a formula of its functions would lose the accuracy it exists for), which this program uses here",
    ]);
  });

  it("refuses what WGSL lacks in the examples, and nothing else", () => {
    const refused = readdirSync("examples")
      .filter((x) => x.endsWith(".gk"))
      .sort()
      .flatMap((f) => {
        const r = frontEnd(join("examples", f), { target: WGSL_TARGET });
        // Its first refusal: what the checker's WebGPU limits or legalize's capabilities say.
        return r.ir ? [] : [`${f}: ${r.diagnostics[0]!.message.replace(/^the WGSL target has no (.*), which this program uses here$/, "$1")}`];
      });
    expect(refused).toEqual([
      "flash_attention.gk: 'flash_f16_d64' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together",
      "hgemm.gk: 'hgemm_f16' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together",
      "lookback_scan.gk: ordered accesses and fences",
      "reduce_generic.gk: block size x must be between 1 and 256, but it is 512",
      "sum4.gk: warp operations (shuffles, votes, matches, syncWarp)",
      "warp_reduce.gk: warp operations (shuffles, votes, matches, syncWarp)",
    ]);
  });
});

describe("legalize: asynchronous copies", () => {
  const COPY = `device_kernel k(x: readonly global<f32>, out: global<f32>) {
  shared t: f32[128];
  cpAsync(t, 4 * threadIdx.x, x, 4 * threadIdx.x, 16);
  cpAsyncWaitAll();
  barrier();
  out[threadIdx.x] = t[threadIdx.x];
}
`;
  it("refuses cp.async on a CUDA GPU before sm_80, at its first use, and lets sm_80 and later have it", () => {
    const r = onTarget(COPY, cudaTargetFor(75));
    expect(r.ir).toBeUndefined();
    expect(diagnosticLines(r)).toEqual(["GK7008 3:3 the CUDA sm_75 target has no asynchronous copies (cpAsync..., for NVIDIA sm_80 and later), which this program uses here"]);
    expect(diagnosticLines(onTarget(COPY, cudaTargetFor(80)))).toEqual([]);
    expect(diagnosticLines(onTarget("device_kernel k() {\n  cpAsyncCommit();\n}\n", lacking("asyncCopies")))).toEqual([
      "GK7008 2:3 the TestGPU target has no asynchronous copies (cpAsync..., for NVIDIA sm_80 and later), which this program uses here",
    ]);
  });
});
