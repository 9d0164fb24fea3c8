/**
 * Names: a safe gk name is kept; any other is spelled safely and deterministically; names
 * are unique per function and per module; file names in comments and `#line` are escaped.
 * nvcc.test.ts compiles the name torture modules.
 */
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/codegen/cuda/index.js";
import { isReservedIdentifier, safeSpelling } from "../../../src/codegen/cuda/names.js";
import { T } from "../../../src/ir/types.js";
import { checkSource } from "../../helpers.js";
import { kernelBody } from "./helpers.js";
import { bin, i32, Ids, kernelFn, letS, moduleOf, ref, store } from "./ir.js";
import { weirdFileModule } from "./nameTorture.js";

describe("spelling one name", () => {
  it("keeps safe names", () => {
    for (const n of ["x", "row", "tile_size", "A", "K2", "y0", "data", "free", "index"]) expect(safeSpelling(n, "local")).toBe(n);
  });

  it("appends _ to keywords, CUDA's names, macros and what generated code calls", () => {
    expect(["int", "new", "delete", "signed", "register", "asm", "threadIdx", "min", "sqrtf", "atomicAdd", "NULL", "INFINITY", "linux", "fmodf"].map((n) => safeSpelling(n, "local"))).toEqual(
      ["int_", "new_", "delete_", "signed_", "register_", "asm_", "threadIdx_", "min_", "sqrtf_", "atomicAdd_", "NULL_", "INFINITY_", "linux_", "fmodf_"],
    );
  });

  it("reserves the headers' global declarations only for kernels and device functions", () => {
    expect(["y0", "free", "printf", "sinf", "dim3", "float4"].map((n) => safeSpelling(n, "global"))).toEqual(["y0_", "free_", "printf_", "sinf_", "dim3_", "float4_"]);
    expect(isReservedIdentifier("free", "local")).toBe(false);
    expect(isReservedIdentifier("free", "global")).toBe(true);
  });

  it("moves names out of the implementation's and the backend's prefixes", () => {
    expect(["__syncthreads", "_Bool", "_x", "a__b", "gk_t1", "GK_X", "cudaMalloc", "cuInit", "CU_X"].map((n) => safeSpelling(n, "local"))).toEqual(
      ["syncthreads", "Bool", "x", "a_b", "u_gk_t1", "u_GK_X", "u_cudaMalloc", "u_cuInit", "u_CU_X"],
    );
    expect(["make_float2", "atomicInc", "atomicAdd"].map((n) => safeSpelling(n, "global"))).toEqual(["u_make_float2", "u_atomicInc", "u_atomicAdd"]);
    // Locals may shadow the headers' functions; the ones generated code calls stay reserved.
    expect(["make_float2", "atomicInc", "atomicAdd"].map((n) => safeSpelling(n, "local"))).toEqual(["make_float2", "atomicInc", "atomicAdd_"]);
  });

  it("encodes characters C++ does not allow", () => {
    expect(["a$b", "$", "π", "1abc", "", "x-y"].map((n) => safeSpelling(n, "local"))).toEqual(["a_x24_b", "x24_", "x3c0_", "v_1abc", "v", "x_x2d_y"]);
  });
});

describe("unique names", () => {
  it("gives shadowed and reused locals x, x_1, ... and keeps them apart from functions", () => {
    const body = kernelBody(`device_fn x_1(): i32 { return 1; }
device_kernel k(out: global<i32>) {
  let x = 1;
  { let x = 2; out[0] = x; }
  for (let x = 0; x < 2; x++) { out[x] = x_1(); }
  out[1] = x;
}`);
    expect(body).toContain("int x = 1;\n{\nint x_2 = 2;\nout[0] = x_2;\n}\nfor (int x_3 = 0;");
  });

  it("keeps a kernel's gk name when it is safe and reports the symbol of every kernel", () => {
    const ids = new Ids();
    const out = ids.global("out", T.i32);
    const m = moduleOf([kernelFn("free", [out], []), kernelFn("saxpy", [out], []), kernelFn("a$b", [out], []), kernelFn("a_x24_b", [out], []), kernelFn("main", [out], [])]);
    expect([...emitCuda(m).kernels]).toEqual([["free", "free_"], ["saxpy", "saxpy"], ["a$b", "a_x24_b_1"], ["a_x24_b", "a_x24_b"], ["main", "main_"]]);
  });

  it("gives a kernel its gk name as its symbol, even one a device function's rule would rename", () => {
    const body = emitCuda(checkSource(`device_fn CUDAhelper(x: f32): f32 { return x; }\ndevice_kernel CUDAkernel2DCT(out: global<f32>) { out[0] = CUDAhelper(1.0); }\n`).ir!);
    expect([...body.kernels]).toEqual([["CUDAkernel2DCT", "CUDAkernel2DCT"]]);
    expect(body.source).toContain('extern "C" __global__ void CUDAkernel2DCT(');
    expect(body.source).toContain("u_CUDAhelper(1.0f)");
  });

  it("keeps the name of a kernel imported from a file whose name clashes with another file's function", () => {
    const files = { "a.gk": "device_fn scale(x: f32): f32 { return x; }\n", "b.gk": "export device_kernel scale(out: global<f32>) { out[0] = 2.0; }\n" };
    const r = checkSource(`import { scale } from "./b.gk";\nimport { } from "./a.gk";\n`, files);
    expect(r.diagnostics).toEqual([]);
    expect(r.ir!.kernels.map((k) => k.name)).toEqual(["scale"]);
    expect([...emitCuda(r.ir!).kernels]).toEqual([["scale", "scale"]]);
  });

  it("separates names that only differ before being made safe", () => {
    const ids = new Ids();
    const out = ids.global("out", T.i32);
    const a = ids.scalar("a$b", T.i32);
    const b = ids.scalar("a_x24_b", T.i32);
    const c = ids.scalar("int", T.i32);
    const d = ids.scalar("int_", T.i32);
    const m = moduleOf([kernelFn("k", [out], [letS(a, i32(1)), letS(b, i32(2)), letS(c, i32(3)), letS(d, i32(4)), store(out, [i32(0)], bin("add", bin("add", ref(a), ref(b)), bin("add", ref(c), ref(d))))])]);
    const cuda = emitCuda(m).source;
    expect(cuda).toContain("int a_x24_b = 1;\n  int a_x24_b_1 = 2;\n  int int_ = 3;\n  int int_1 = 4;");
  });
});

describe("file names in the output", () => {
  it("escapes them in the header comment and in #line", () => {
    const { module, sources } = weirdFileModule();
    const cuda = emitCuda(module, { sources }).source;
    const lines = cuda.split("\n");
    expect(lines[0]).toBe('// Generated by gk from "dir/we\\"ird\\\\na\\012me*\\/ \\?\\?/ \\303\\251.gk". Do not edit.');
    // nvcc cannot carry " and ?? in a #line name (see lineDirectiveFile).
    expect(lines).toContain('#line 1 "dir/we%22ird\\\\na\\012me*/ %3F%3F/ \\303\\251.gk"');
    expect(cuda).not.toContain("\nme");
  });

  it("names the gk version in the header when given", () => {
    const ids = new Ids();
    const m = moduleOf([kernelFn("k", [ids.global("out", T.i32)], [])], [], "examples/saxpy.gk");
    expect(emitCuda(m, { gkVersion: "1.2.3" }).source.split("\n")[0]).toBe("// Generated by gk 1.2.3 from examples/saxpy.gk. Do not edit.");
  });

  it("writes #line only where nvcc's count would differ", () => {
    const src = "device_kernel k(out: global<i32>) {\n  out[0] = 1;\n  out[1] = 2;\n\n  out[2] = 3;\n}\n";
    const { ir, sources } = irOfWithSources(src);
    const r = emitCuda(ir, { sources }).source;
    expect(r).toBe(
      [
        "// Generated by gk from test.gk. Do not edit.",
        "",
        '#line 1 "test.gk"',
        'extern "C" __global__ void k(int* __restrict__ out) {',
        "  out[0] = 1;",
        "  out[1] = 2;",
        '#line 5 "test.gk"',
        "  out[2] = 3;",
        "}",
        "",
      ].join("\n"),
    );
    expect(emitCuda(ir, { sources, lineDirectives: false }).source).not.toContain("#line");
  });
});

function irOfWithSources(src: string) {
  const r = checkSource(src);
  expect(r.ir).toBeDefined();
  return { ir: r.ir!, sources: r.sources };
}

describe("instances of generic definitions", () => {
  it("are named by their definition's symbol, '$' and their arguments, which no other name can take", () => {
    const r = checkSource(`device_kernel fill<T: i32 | f32, V: i32, B: bool>(out: global<T>) { out[0] = B ? T(V) : T(0); }
device_kernel fill$i32(out: global<i32>) {}
device_kernel int<T: i32 | f32>(out: global<T>) {}
device_fn sq<T: numeric>(x: T): T { return x * x; }
device_kernel k(out: global<u64>) { out[0] = sq(out[0]); }
launch fill<i32, -1, true>(out = zeros(1)) grid(1) block(1);
launch fill<f32, 256, false>(out = zeros(1)) grid(1) block(1);
launch int<f32>(out = zeros(1)) grid(1) block(1);
`);
    // A '$' is not part of a gk name: the second kernel's name is a syntax error, not a clash.
    expect(r.diagnostics.map((d) => d.code)).toContain("GK1001");
    const ok = checkSource(`device_kernel fill<T: i32 | f32, V: i32, B: bool>(out: global<T>) { out[0] = B ? T(V) : T(0); }
device_kernel fill_i32(out: global<i32>) {}
device_fn int<T: i32 | f32>(x: T): T { return x; }
device_fn sq<T: numeric>(x: T): T { return x * x; }
device_kernel k(out: global<u64>, f: global<f32>) { out[0] = sq(out[0]); f[0] = int(f[0]); }
launch fill<i32, -1, true>(out = zeros(1)) grid(1) block(1);
launch fill<f32, 256, false>(out = zeros(1)) grid(1) block(1);
`);
    const cuda = emitCuda(ok.ir!);
    // A generic kernel's instances keep its name verbatim (name fidelity) before the '$'.
    expect([...cuda.kernels]).toEqual([
      ["fill_i32", "fill_i32"],
      ["k", "k"],
      ["fill<i32, -1, true>", "fill$i32$m1$true"],
      ["fill<f32, 256, false>", "fill$f32$256$false"],
    ]);
    // A device function's definition named like a C++ keyword is spelled safely.
    expect(cuda.source).toContain("int_$f32(");
    expect(cuda.source).toContain("static __device__ unsigned long long sq$u64(unsigned long long x)");
  });
});

/** Entries put into Sets and Maps while `f` runs: the work of naming, counted rather than timed. */
function insertions(f: () => void): number {
  const add = Set.prototype.add;
  const set = Map.prototype.set;
  let n = 0;
  Set.prototype.add = function (this: Set<unknown>, v: unknown) {
    n++;
    return add.call(this, v);
  };
  Map.prototype.set = function (this: Map<unknown, unknown>, k: unknown, v: unknown) {
    n++;
    return set.call(this, k, v);
  };
  try {
    f();
  } finally {
    Set.prototype.add = add;
    Map.prototype.set = set;
  }
  return n;
}

describe("naming a module's variables", () => {
  it("takes work linear in its kernels, device functions and constant arrays (the table of global names is made once per module)", () => {
    const module = (n: number) =>
      checkSource(Array.from({ length: n }, (_, i) => `constant C${i}: f32[1];\ndevice_fn g${i}(x: f32): f32 { return x; }\ndevice_kernel k${i}(o: global<f32>) { const x = C${i}[0]; o[0] = g${i}(x); }\n`).join("")).ir!;
    const [small, large] = [module(400), module(800)];
    const work = [insertions(() => emitCuda(small)), insertions(() => emitCuda(large))];
    // Twice the functions and constants: about twice the work (a table per function would be four times).
    expect(work[1]! / work[0]!).toBeLessThan(2.5);
  });
});
