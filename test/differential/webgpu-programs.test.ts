/**
 * Every example and spec/ok program that WGSL can express runs on WebGPU with the simulator's
 * results: each launch statement runs on both and each output agrees (integers and bools bit
 * for bit; floats within 1e-5 of the output's largest magnitude: WGSL lets a driver contract
 * `a * b + c` and gives its math builtins their own precision, spec/wgsl.md; within 1e-3 for
 * a program of the fast builtins, whose approximations the simulator takes from CUDA's and
 * WGSL makes its own way). A program WGSL
 * cannot express is listed with the reason legalize gives (GK7008), and the list is checked
 * against the one below, so a program that starts or stops being expressible is noticed.
 * Skipped, with a one-line reason, where there is no WebGPU adapter.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readScalar } from "../../src/ir/composite.js";
import { mathBuiltin } from "../../src/ir/builtins.js";
import type { Module } from "../../src/ir/nodes.js";
import { visit } from "../../src/ir/walk.js";
import { legalize } from "../../src/ir/passes/legalize.js";
import { leaves, type ValueType } from "../../src/ir/types.js";
import type { AnyTypedArray } from "../../src/ir/values.js";
import { WGSL_TARGET } from "../../src/codegen/wgsl/target.js";
import { frontEnd } from "../../src/pipeline.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { runLaunch } from "../../src/runtime/launches.js";
import { createRunner, type Runner } from "../../src/runtime/runner.js";
import { compareValues, describeMismatches } from "../../src/testing/compare.js";
import { webgpuAvailable } from "../runtime/webgpu/adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/differential/webgpu-programs.test.ts skipped: ${webgpu.reason}`);

const files = [
  ...readdirSync("examples").filter((f) => f.endsWith(".gk")).map((f) => join("examples", f)),
  ...readdirSync("spec/ok").filter((f) => f.endsWith(".gk")).map((f) => join("spec/ok", f)),
].sort();

/** What WGSL cannot express, by file: the first refusal's message. */
function refusal(file: string): string | undefined {
  const fe = frontEnd(file);
  const d = legalize(fe.ir!, WGSL_TARGET)[0];
  return d ? `${d.code} ${d.message}` : undefined;
}

function usesFastBuiltins(ir: Module): boolean {
  let found = false;
  for (const f of [...ir.functions, ...ir.kernels]) visit(f.body, { expr: (e) => void (found ||= e.kind === "builtin" && mathBuiltin(e.name)?.fast !== undefined) });
  return found;
}

const runners: Runner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

function bitsOf(a: AnyTypedArray): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");
}

/** Undefined where `got` is `want` (floats within `rel` of the largest magnitude), else what differs. */
function differs(elem: ValueType, want: AnyTypedArray, got: AnyTypedArray, rel: number): string | undefined {
  if (bitsOf(want) === bitsOf(got)) return undefined;
  const floats = (t: ValueType) => leaves(t).some((l) => l.type.name === "f32");
  if (!floats(elem)) return `outputs differ: simulator ${bitsOf(want).slice(0, 64)}…, WebGPU ${bitsOf(got).slice(0, 64)}…`;
  let scale = 0;
  if (elem.kind === "struct") {
    const view = new DataView(want.buffer, want.byteOffset, want.byteLength);
    for (let at = 0; at < want.byteLength; at += elem.size) for (const l of leaves(elem)) if (l.type.name === "f32") scale = Math.max(scale, Math.abs(readScalar(l.type, view, at + l.offset) as number));
  } else {
    for (let i = 0; i < want.length; i++) if (Number.isFinite(want[i] as number)) scale = Math.max(scale, Math.abs(want[i] as number));
  }
  const diffs = compareValues("output", elem, want, got, { abs: rel * scale }).flatMap((c) => describeMismatches(c, ["simulator", "WebGPU"]));
  return diffs.length ? diffs.slice(0, 5).join("\n") : undefined;
}

describe("which programs WGSL expresses", () => {
  it("lists the examples and spec/ok programs WGSL cannot express, with legalize's reason", () => {
    const refused = Object.fromEntries(files.flatMap((f) => {
      const why = refusal(f);
      return why ? [[f, why.replace(/, which this program uses.*$/s, "")]] : [];
    }));
    expect(refused).toMatchInlineSnapshot(`
      {
        "examples/flash_attention.gk": "GK7008 the WGSL target has no half-precision floats (f16, bf16)",
        "examples/hgemm.gk": "GK7008 the WGSL target has no asynchronous copies (cpAsync..., for NVIDIA sm_80 and later)",
        "examples/lookback_scan.gk": "GK7008 the WGSL target has no ordered accesses and fences",
        "examples/reduce_generic.gk": "GK7008 the WGSL target has no f64",
        "examples/sum4.gk": "GK7008 the WGSL target has no warp operations (shuffles, votes, matches, syncWarp)",
        "examples/warp_reduce.gk": "GK7008 the WGSL target has no warp operations (shuffles, votes, matches, syncWarp)",
        "spec/ok/async_copies.gk": "GK7008 the WGSL target has no half-precision floats (f16, bf16)",
        "spec/ok/atomic_views.gk": "GK7008 the WGSL target has no view<T> parameters",
        "spec/ok/atomics.gk": "GK7008 the WGSL target has no 64-bit integers (i64, u64)",
        "spec/ok/bitcast.gk": "GK7008 the WGSL target has no f64",
        "spec/ok/const_arrays.gk": "GK7008 the WGSL target has no 64-bit integers (i64, u64)",
        "spec/ok/dynamic_shared.gk": "GK7008 the WGSL target has no f64",
        "spec/ok/flush_to_zero.gk": "GK7008 the WGSL target has no bool elements in global memory (alone or in a struct)",
        "spec/ok/generics.gk": "GK7008 the WGSL target has no 64-bit integers (i64, u64)",
        "spec/ok/half_vectors.gk": "GK7008 the WGSL target has no half-precision floats (f16, bf16)",
        "spec/ok/halves.gk": "GK7008 the WGSL target has no half-precision floats (f16, bf16)",
        "spec/ok/math.gk": "GK7008 the WGSL target has no f64",
        "spec/ok/memory_order.gk": "GK7008 the WGSL target has no ordered accesses and fences",
        "spec/ok/references_views.gk": "GK7008 the WGSL target has no inout and out parameters",
        "spec/ok/small_ints.gk": "GK7008 the WGSL target has no 8- and 16-bit integers (i8, u8, i16, u16)",
        "spec/ok/tensor_cores.gk": "GK7008 the WGSL target has no tensor cores (mma_..., for NVIDIA sm_80 and later)",
        "spec/ok/types.gk": "GK7008 the WGSL target has no 64-bit integers (i64, u64)",
        "spec/ok/vectors.gk": "GK7008 the WGSL target has no bool elements in global memory (alone or in a struct)",
        "spec/ok/warp_match.gk": "GK7008 the WGSL target has no 64-bit integers (i64, u64)",
        "spec/ok/warps.gk": "GK7008 the WGSL target has no f64",
        "spec/ok/wide_half_vectors.gk": "GK7008 the WGSL target has no half-precision floats (f16, bf16)",
      }
    `);
  });
});

describe.skipIf(!webgpu.ok)(`examples and spec/ok programs on WebGPU (${webgpu.reason})`, () => {
  for (const file of files) {
    it.skipIf(refusal(file) !== undefined)(`${file}: WebGPU equals the simulator`, async () => {
      const fe = frontEnd(file);
      const ir = fe.ir!;
      const cpu = createRunner(ir, fe.sources, await openDevice({ device: "cpu" }));
      const gpu = createRunner(ir, fe.sources, await openDevice({ device: "webgpu" }));
      runners.push(gpu);
      const rel = usesFastBuiltins(ir) ? 1e-3 : 1e-5;
      for (const l of ir.launches) {
        const want = await runLaunch(ir, l, cpu);
        const got = await runLaunch(ir, l, gpu);
        expect(got.device).toBe("webgpu");
        for (const [name, w] of want.outputs) {
          expect(differs(w.elem, w.data, got.outputs.get(name)!.data, rel), `${file}: launch of ${l.kernel}, output ${name}`).toBeUndefined();
        }
      }
    });
  }
});
