/**
 * The generated CUDA compiles with the real nvcc (`-O3 -lineinfo -arch=sm_90 -ptx`) with no
 * error and no warning: every example, every spec/ok program, the torture modules (every
 * operator, conversion, builtin, atomic and loop form), the name torture modules, a weird
 * file name, and nvcc's own reading of every kind of literal. One example also goes to a
 * cubin through the runtime's `compileCuda`. All builds run in one parallel batch. Atomics on
 * u8, i16 and f16 elements (a CAS loop on the word that holds them) leave the array's plain
 * reads coherent: no `ld.global.nc` of an array the kernel writes.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/codegen/cuda/index.js";
import { literal } from "../../../src/codegen/cuda/literals.js";
import { bitWidth, byteSize, T, type ScalarType, type ScalarValue } from "../../../src/ir/types.js";
import { INT_RANGES } from "../../../src/ir/values.js";
import { frontEnd } from "../../../src/pipeline.js";
import { compileCuda } from "../../../src/build/nvcc.js";
import { compileAll, cudaOf, expectClean, finiteF32, nvccPath, type CompileJob, type CompileResult } from "./helpers.js";
import { deviceFunctionsModule, kernelsModule, localsModule, weirdFileModule } from "./nameTorture.js";
import { awkwardConstants, tortureModules } from "./torture.js";

const nvcc = nvccPath();

/** Every `.gk` program of a folder, as CUDA with `#line` directives. */
function programs(dir: string): CompileJob[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".gk"))
    .sort()
    .map((f) => {
      const r = frontEnd(path.join(dir, f));
      expect(r.diagnostics.filter((d) => d.severity === "error"), `${dir}/${f} checks`).toEqual([]);
      return { name: `${dir}/${f}`, source: emitCuda(r.ir!, { sources: r.sources, gkVersion: "test" }).source, mode: "ptx" as const };
    });
}

/**
 * `static_assert`s that nvcc reads each literal the backend prints as exactly the bits, and
 * the type, of the value it stands for: random values of every type, f32 and f64 over all
 * exponents (subnormals included), and each type's extremes.
 */
function literalChecks(): string {
  const lines = ["// Each literal as the backend prints it, and the bits and size nvcc must read it with."];
  const check = (t: ScalarType, v: ScalarValue) => {
    const unsigned = { 1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long" }[byteSize(t)]!;
    const bits = t.name === "f64" ? new BigUint64Array(new Float64Array([v as number]).buffer)[0]! : t.name === "f32" ? new Uint32Array(new Float32Array([v as number]).buffer)[0]! : BigInt.asUintN(bitWidth(t), BigInt(v as number | bigint));
    const text = literal(t, v).text;
    lines.push(`static_assert(__builtin_bit_cast(${unsigned}, ${text}) == ${bits}${unsigned === "unsigned long long" ? "ull" : "u"} && sizeof(${text}) == ${byteSize(t)}, "");`);
  };
  for (const v of fc.sample(finiteF32, { numRuns: 3000, seed: 42 })) check(T.f32, v);
  for (const v of fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), { numRuns: 3000, seed: 43 })) check(T.f64, v);
  for (const v of fc.sample(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { numRuns: 200, seed: 44 })) check(T.i32, v);
  for (const v of fc.sample(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { numRuns: 200, seed: 45 })) check(T.u32, v);
  for (const v of fc.sample(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { numRuns: 200, seed: 46 })) check(T.i64, v);
  for (const v of fc.sample(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { numRuns: 200, seed: 47 })) check(T.u64, v);
  // The small integers; f16 and bf16 literals are their bits through an intrinsic, which C++ cannot evaluate at compile time.
  for (const t of [T.i8, T.u8, T.i16, T.u16]) for (const v of [Number(INT_RANGES[t.name as "i8"][0]), Number(INT_RANGES[t.name as "i8"][1]), 0, 1, -1].filter((x) => x >= Number(INT_RANGES[t.name as "i8"][0]))) check(t, v);
  for (const t of [T.i32, T.u32, T.i64, T.u64, T.f32, T.f64]) for (const v of awkwardConstants(t)) if (typeof v !== "number" || Number.isFinite(v)) check(t, v);
  return lines.join("\n") + "\n";
}

describe.skipIf(!nvcc)("nvcc compiles the generated CUDA cleanly", () => {
  let results: Map<string, CompileResult>;
  const jobs: CompileJob[] = [];

  beforeAll(async () => {
    jobs.push(...programs("examples"), ...programs(path.join("spec", "ok")));
    for (const t of tortureModules()) jobs.push({ name: t.name, source: emitCuda(t.module).source, mode: "ptx" });
    jobs.push({ name: "names: locals", source: emitCuda(localsModule()).source, mode: "ptx" });
    jobs.push({ name: "names: kernels", source: emitCuda(kernelsModule()).source, mode: "ptx" });
    jobs.push({ name: "names: device functions", source: emitCuda(deviceFunctionsModule()).source, mode: "ptx" });
    const weird = weirdFileModule();
    jobs.push({ name: "names: weird file name", source: emitCuda(weird.module, { sources: weird.sources }).source, mode: "ptx" });
    jobs.push({ name: "literals", source: literalChecks(), mode: "ptx" });
    const torture = jobs.find((j) => j.name.startsWith("torture: control"))!;
    jobs.push({ ...torture, name: `${torture.name} (cubin)`, mode: "cubin" });
    results = new Map((await compileAll(nvcc!, jobs)).map((r) => [r.name, r]));
  });

  it("compiles every example", () => {
    const names = jobs.filter((j) => j.name.startsWith("examples/")).map((j) => j.name);
    expect(names.length).toBeGreaterThan(0);
    expectClean(names.map((n) => results.get(n)!));
  });

  it("compiles every spec/ok program", () => {
    expectClean(jobs.filter((j) => j.name.startsWith(path.join("spec", "ok"))).map((j) => results.get(j.name)!));
  });

  it("compiles the torture modules, to PTX and to a cubin", () => {
    const names = jobs.filter((j) => j.name.startsWith("torture")).map((j) => j.name);
    expect(names).toHaveLength(5);
    expectClean(names.map((n) => results.get(n)!));
  });

  it("compiles names that collide with C++, CUDA, the headers and the backend, and a weird file name", () => {
    expectClean(jobs.filter((j) => j.name.startsWith("names")).map((j) => results.get(j.name)!));
  });

  it("reads every literal as exactly the value it stands for", () => {
    expectClean([results.get("literals")!]);
  });
});

describe.skipIf(!nvcc)("through the runtime's compileCuda", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "gk-codegen-compile-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("builds an example to PTX and a cubin with no warnings", async () => {
    const r = frontEnd(path.join("examples", "matmul.gk"));
    const out = emitCuda(r.ir!, { sources: r.sources });
    const built = await compileCuda({ source: out.source, arch: "sm_90", outDir: dir, baseName: "matmul", sourceMap: r.sources, nvcc: nvcc! });
    expect(built.warnings).toEqual([]);
    expect(out.kernels.get("matmul")).toBe("matmul");
  });
});

describe.skipIf(!nvcc)("atomics on small elements", () => {
  // k3708 and k4135 of the GPU differential run: the CAS loop's word pointer was made from
  // the element's address as an integer, so nvcc took the __restrict__ array as never
  // written and read it through the non-coherent cache (ld.global.nc), which still held the
  // value from before the atomics of an earlier loop iteration.
  it("are writes of their array as nvcc sees it: its reads stay coherent", async () => {
    const source = cudaOf(`
device_kernel k(a: global<u8>, b: global<i16>, h: global<f16>, c: global<u8>) {
  for (let i = 0; i < 2; i++) {
    atomicXor(a, 0, max(a[0], u8(8)));
    atomicAdd(b, 1, b[1] | i16(1));
    atomicMax(h, 2, h[2] + 1.0);
    atomicCAS(c, 3, c[3], c[3] + 1);
  }
}
`);
    const dir = mkdtempSync(path.join(tmpdir(), "gk-narrow-atomics-"));
    try {
      const cu = path.join(dir, "narrow.cu");
      writeFileSync(cu, source);
      const built = await execa(nvcc!, ["-O3", "-arch=sm_90", "-ptx", cu, "-o", path.join(dir, "narrow.ptx")], { reject: false, stdin: "ignore" });
      expect(built.exitCode, built.stderr).toBe(0);
      const ptx = readFileSync(path.join(dir, "narrow.ptx"), "utf8");
      expect(ptx).toContain("atom.global.cas.b32");
      expect(ptx.split("\n").filter((l) => l.includes("ld.global.nc"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!nvcc)("atomics on f16x2 and bf16x2", () => {
  it("are one atom.add.noftz.f16x2 / .bf16x2 each, in global and shared memory, and writes of their array as nvcc sees it", async () => {
    const source = cudaOf(`
device_kernel k(h: global<f16x2>, b: global<bf16x2>) {
  shared s: bf16x2[4][4];
  s[threadIdx.x % 4][0] = b[1];
  barrier();
  for (let i = 0; i < 2; i++) {
    atomicAdd(h, 0, h[0]);
    atomicAdd(s[i], 0, b[0]);
  }
  barrier();
  b[0] = s[1][0];
}
`);
    const dir = mkdtempSync(path.join(tmpdir(), "gk-half2-atomics-"));
    try {
      const cu = path.join(dir, "half2.cu");
      writeFileSync(cu, source);
      const built = await execa(nvcc!, ["-O3", "-arch=sm_90", "-ptx", cu, "-o", path.join(dir, "half2.ptx")], { reject: false, stdin: "ignore" });
      expect(built.exitCode, built.stderr).toBe(0);
      const ptx = readFileSync(path.join(dir, "half2.ptx"), "utf8");
      const lines = (what: string) => ptx.split("\n").filter((l) => l.includes(what)).length;
      // The loop of two is unrolled: two of each, and no compare-and-swap loop.
      expect([lines("atom.add.noftz.f16x2"), lines("atom.add.noftz.bf16x2"), lines("atom.cas"), lines("ld.global.nc")]).toEqual([2, 2, 0, 0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
