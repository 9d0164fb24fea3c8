/** Helpers for the standard library's tests: one simulator device, modules that import gk/std, plain-JS references. */
import { afterAll } from "vitest";
import { openDevice, type GpuDevice } from "../../src/runtime/device/device.js";
import type { LoadedModule } from "../../src/runtime/api.js";

let device: Promise<GpuDevice> | undefined;
const modules = new Map<string, Promise<LoadedModule>>();

/** The simulator, opened once per test file. */
export function sim(): Promise<GpuDevice> {
  device ??= openDevice({ device: "cpu" });
  return device;
}

afterAll(async () => {
  if (device) (await device).close();
});

/** A module of `source` (which imports from gk/std), compiled once per test file. */
export function stdModule(source: string): Promise<LoadedModule> {
  let m = modules.get(source);
  if (!m) {
    m = sim().then((gpu) => gpu.compileSource(source, { filename: "/tmp/stdlib-test.gk" }));
    modules.set(source, m);
  }
  return m;
}

/** The operators of gk/std/ops, by name, with their reference on JS numbers of a type. */
export const OPS = { SUM: 0, MIN: 1, MAX: 2, AND: 3, OR: 4, XOR: 5 } as const;
export type OpName = keyof typeof OPS;

/** `a OP b` as the kernel computes it on i32 (wrapping), u32, or f32 (rounded once). */
export function refCombine(elem: "i32" | "u32" | "f32", op: OpName): (a: number, b: number) => number {
  const wrap = elem === "i32" ? (v: number) => v | 0 : elem === "u32" ? (v: number) => v >>> 0 : Math.fround;
  switch (op) {
    case "SUM":
      return (a, b) => wrap(a + b);
    case "MIN":
      return (a, b) => Math.min(a, b);
    case "MAX":
      return (a, b) => Math.max(a, b);
    case "AND":
      return (a, b) => wrap(a & b);
    case "OR":
      return (a, b) => wrap(a | b);
    case "XOR":
      return (a, b) => wrap(a ^ b);
  }
}

/** The identity of OP on a 32-bit type, as gk/std/ops defines it. */
export function refIdentity(elem: "i32" | "u32" | "f32", op: OpName): number {
  const hi = elem === "i32" ? 2147483647 : elem === "u32" ? 4294967295 : Infinity;
  const lo = elem === "i32" ? -2147483648 : elem === "u32" ? 0 : -Infinity;
  return op === "MIN" ? hi : op === "MAX" ? lo : op === "AND" ? (elem === "u32" ? 4294967295 : -1) : 0;
}

export const ARRAYS = { i32: Int32Array, u32: Uint32Array, f32: Float32Array } as const;
