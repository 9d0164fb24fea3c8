/** Loop bounds read from readonly arrays at indices the loop changes, or from arrays the loop writes, are volatile reads (src/codegen/cuda/analysis.ts). */
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/codegen/cuda/index.js";
import { memoryHost } from "../../../src/load/program.js";
import { frontEnd } from "../../../src/pipeline.js";

function cuda(body: string): string {
  const src = `device_kernel k(n: i32, lim: readonly global<i32>, out: global<i32>) {\n${body}\n}\n`;
  const r = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
  expect(r.diagnostics).toEqual([]);
  return emitCuda(r.ir!, { sources: r.sources }).source;
}

describe("loop bounds ptxas would miscompile", () => {
  it("reads a bound volatile when its index changes in the loop", () => {
    expect(cuda("  let j = n;\n  for (let i = 0; i < lim[j % 4]; i++) { j += 3; out[i] = j; }")).toContain("i < ((const volatile int*)lim)[j % 4]");
    expect(cuda("  let j = 0;\n  while (lim[j] > 0) { j++; }\n  out[0] = j;")).toContain("((const volatile int*)lim)[j]");
  });

  it("leaves a bound alone when its index is the same every iteration (CSR row bounds, for instance)", () => {
    const text = cuda("  const row = globalId.x;\n  for (let i = lim[row]; i < lim[row + 1]; i++) { out[i] = row; }");
    expect(text).not.toContain("volatile");
  });

  it("reads a bound volatile when the loop writes its array: a store, an atomic, or a device function it is passed to", () => {
    const body = (write: string) => `  for (let i = 0; i < out[3]; i++) { ${write} }`;
    expect(cuda(body("out[3] -= 1;"))).toContain("i < ((const volatile int*)out)[3]");
    expect(cuda(body("atomicAdd(out, 3, -1);"))).toContain("i < ((const volatile int*)out)[3]");
    const src = "device_fn dec(a: global<i32>) { a[3] -= 1; }\ndevice_kernel k(out: global<i32>) {\n  for (let i = 0; i < out[3]; i++) { dec(out); }\n}\n";
    const r = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    expect(emitCuda(r.ir!, { sources: r.sources }).source).toContain("i < ((const volatile int*)out)[3]");
  });

  it("decides by array (another element of it counts) and leaves a bound alone when the loop writes other arrays only", () => {
    expect(cuda("  for (let i = 0; i < out[3]; i++) { out[4] = i; }")).toContain("i < ((const volatile int*)out)[3]");
    const src = "device_kernel k(a: global<i32>, out: global<i32>) {\n  for (let i = 0; i < a[0]; i++) { out[i] = i; }\n}\n";
    const r = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    expect(emitCuda(r.ir!, { sources: r.sources }).source).not.toContain("volatile");
  });
});

describe("loop bounds read once before the loop (analysis.ts, hoistedBounds)", () => {
  it("computes a bound from a readonly array at an index the loop does not change once, before the loop (seed 20261201 kernel 236)", () => {
    const text = cuda("  for (let i = 0; i < abs((26 + lim[7]) % 5); i++) { out[i] = i; }\n  barrier();");
    expect(text).toMatch(/(\w+) = gk_abs_i32\(\(int\)\(26u \+ \(unsigned int\)lim\[7\]\) % 5\);\n.*\n\s*for \(int i = 0; i < \1;/);
    const csr = cuda("  const row = globalId.x;\n  for (let i = lim[row]; i < lim[row + 1]; i++) { out[i] = row; }");
    expect(csr).toMatch(/(\w+) = lim\[.*row.*\];\n.*\n\s*for \(int i = lim\[row\]; i < \1;/);
  });

  it("leaves in the loop a bound whose index the loop or its init changes, one the condition reads only sometimes, and one in a device function (its readonly parameter may be an array its caller writes: f(a, a))", () => {
    expect(cuda("  let j = n;\n  for (let i = 0; i < lim[j % 4]; i++) { j += 3; out[i] = j; }")).not.toMatch(/= lim\[/);
    expect(cuda("  for (let j = n; j < lim[j]; j++) { out[j] = j; }")).not.toMatch(/= lim\[/);
    expect(cuda("  let j = 0;\n  while (j < 4 && lim[5] > j) { j++; }\n  out[0] = j;")).not.toMatch(/= lim\[/);
    const src = "device_fn f(lim: readonly global<i32>, out: global<i32>) {\n  for (let i = 0; i < lim[0]; i++) { out[0] = i; }\n}\ndevice_kernel k(a: global<i32>) { f(a, a); }\n";
    const r = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    expect(r.diagnostics).toEqual([]);
    expect(emitCuda(r.ir!, { sources: r.sources }).source).toContain("i < lim[0]");
    expect(cuda("  let j = 0;\n  while (lim[5] > j && j < 4) { j++; }\n  out[0] = j;")).toMatch(/(\w+) = lim\[5\];\n.*\n\s*while \(\1 > j && j < 4\)/);
  });
});

describe("volatile bounds of f16 and bf16", () => {
  it("read the bits, which have operators (the half types have none on volatile values)", () => {
    const src = "device_kernel k(x: readonly global<f16>, out: global<i32>) {\n  let j = 0;\n  while (j < 4 && x[j] < 1.5) { j++; }\n  out[0] = j;\n}\n";
    const r = frontEnd("k.gk", { host: memoryHost({ "k.gk": src }) });
    expect(emitCuda(r.ir!, { sources: r.sources }).source).toContain("__ushort_as_half(((const volatile unsigned short*)x)[j]) < __ushort_as_half(0x3e00)");
  });
});
