/**
 * A kernel's annotation (src/check/kernelAnnotations.ts): `@launchBounds(maxThreads[,
 * minBlocks])` and `@maxRegisters(n)` before `device_kernel` (after or before `export`), with
 * constant arguments (a generic kernel's constant parameters, per instance), into the IR
 * function and CUDA's `__launch_bounds__` / `__maxnreg__`; anything else is GK4013. A launch
 * statement past the bound is GK5006 (test/ir/limits.test.ts: the API and the simulator too).
 */
import { describe, expect, it } from "vitest";
import { expectDiagnostics, expectError, irOf, printed } from "../helpers.js";
import { cudaOf } from "../codegen/cuda/helpers.js";
import { parseClean } from "../parser/helpers.js";

const BODY = "(o: global<f32>) { o[globalId.x] = 1.0; }";

describe("kernel annotations", () => {
  it("bound a kernel's blocks, or its registers, in the IR and in CUDA", () => {
    const src = `const B = 128;
@launchBounds(256, 2)
device_kernel a${BODY}
@maxRegisters(64)
export device_kernel b${BODY}
export @launchBounds(B)
device_kernel c${BODY}
`;
    const ir = irOf(src);
    expect(ir.kernels.map((k) => [k.name, k.launchBounds, k.maxRegisters])).toEqual([
      ["a", { maxThreads: 256, minBlocks: 2 }, undefined],
      ["b", undefined, 64],
      ["c", { maxThreads: 128 }, undefined],
    ]);
    expect(parseClean(src).items.flatMap((d) => (d.kind === "Kernel" ? [[d.name.name, d.exported, d.annotation?.name.name]] : []))).toEqual([
      ["a", false, "launchBounds"],
      ["b", true, "maxRegisters"],
      ["c", true, "launchBounds"],
    ]);
    expect(printed(src)).toContain("@launchBounds(256, 2)\nkernel a(o: global<f32>) {");
    const cuda = cudaOf(src);
    expect(cuda).toContain('extern "C" __global__ __launch_bounds__(256, 2) void a(float* __restrict__ o) {');
    expect(cuda).toContain('extern "C" __global__ __maxnreg__(64) void b(float* __restrict__ o) {');
    expect(cuda).toContain('extern "C" __global__ __launch_bounds__(128) void c(float* __restrict__ o) {');
  });

  it("take a generic kernel's constant parameter, checked in each instance", () => {
    const src = `@launchBounds(B, 2)\ndevice_kernel h<B: i32>${BODY}\n`;
    expectDiagnostics(`${src}launch h<256>(o = zeros(512)) grid(2) block(256);`, []);
    expectError(`${src}launch h<64>(o = zeros(512)) grid(2) block(128);`, "GK5006 3:44 launch of 'h': the kernel is declared @launchBounds(64): its blocks have at most 64 threads, but block [128, 1, 1] has 128");
  });

  it("refuse other annotations, other argument counts, values out of range and run-time values (GK4013)", () => {
    expectError(`@launchBounds(2000)\ndevice_kernel k${BODY}`, "GK4013 1:15 the most threads of a block (@launchBounds) must be from 1 to 1024, but '2000' is 2000");
    expectError(`@launchBounds(256, 0)\ndevice_kernel k${BODY}`, "GK4013 1:20 the blocks per multiprocessor (@launchBounds) must be from 1 to 32, but '0' is 0");
    expectError(`@launchBounds(1, 2, 3)\ndevice_kernel k${BODY}`, "GK4013 1:1 @launchBounds takes 1 or 2 arguments (maxThreads, minBlocks), but 3 were given");
    expectError(`@maxRegisters(8)\ndevice_kernel k${BODY}`, "GK4013 1:15 the register count of @maxRegisters must be from 16 to 255, but '8' is 8");
    expectError(`@launchBounds(n)\ndevice_kernel k(n: i32, o: global<f32>) { o[0] = 1.0; }`, "GK4013 1:15 the most threads of a block (@launchBounds) must be a constant, but 'n' is a parameter of the kernel");
    expectError(`@flushToZero\ndevice_kernel k${BODY}`, "GK4013 1:1 @flushToZero is an option of the whole module: write '@flushToZero;'");
    expectError(`@unroll\ndevice_kernel k${BODY}`, "GK4013 1:1 @unroll annotates the loop after it, inside a function");
    expectError(`@launchBounds(1.5)\ndevice_kernel k${BODY}`, "GK3014 1:15 the most threads of a block (@launchBounds) must be an integer");
  });

  it("stand before a device_kernel only: elsewhere the parser says where they belong (GK1010)", () => {
    expectError(`@launchBounds(64)\ndevice_fn f(x: f32): f32 { return x; }`, "GK1010 1:18 a device function takes no annotation: @launchBounds and @maxRegisters stand right before a device_kernel");
    expectError(`@flushToZero\nconst A = 1;`, "GK1010 1:13 expected ';' after the module option (@flushToZero;), or a device_kernel after a kernel's annotation (@launchBounds, @maxRegisters), found 'const'");
  });

  it("leave a module option a module option", () => {
    expectDiagnostics(`@flushToZero;\ndevice_kernel k${BODY}`, []);
    expectError(`@launchBounds(64);\ndevice_kernel k${BODY}`, "GK4013 1:1 unknown module option '@launchBounds'");
  });
});
