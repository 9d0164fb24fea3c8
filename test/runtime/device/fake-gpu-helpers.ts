/**
 * What the fake-driver device tests share (fake-gpu.test.ts, fake-gpu-fault.test.ts): the
 * kernels, built by nvcc from .gk source (the fake driver runs them by name inside
 * cuLaunchKernel), the set-up of the fake libcuda.so.1, the addon and the launcher, and why
 * the tests skip where nvcc is missing.
 */
import { join } from "node:path";
import { findNvcc } from "../../../src/build/nvcc.js";
import { buildFakeDriver, ensureAddon, ensureLauncher, tempDir } from "../launcher/helpers.js";

// The fake driver's kernels, by name and parameters: saxpy(n, a, x, y, out), add_one(n, p), oob(p) faults, spin never ends,
// roundtrip_narrow copies its six 1- and 2-byte scalars to its six arrays, read_constant copies the
// constant array "table" (16 bytes) to out, shared_length writes its dynamic shared array's length to out[0].
export const FAKE_SRC = `
constant table: f32[4];
device_kernel read_constant(out: global<f32>) {
  const i = globalId.x;
  if (i < 4) { out[i] = table[i]; }
}
device_kernel shared_length(out: global<f32>) {
  shared buf: f32[];
  if (globalId.x == 0) { buf[0] = 1.0; out[0] = buf[0]; }
}
device_kernel saxpy(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {
  const i = globalId.x;
  if (i < n) { out[i] = alpha * x[i] + y[i]; }
}
device_kernel add_one(n: i32, p: global<i32>) {
  const i = globalId.x;
  if (i < n) { p[i] = p[i] + 1; }
}
device_kernel oob(p: global<i32>) { p[globalId.x + 1000000000] = 1; }
device_kernel roundtrip_narrow(a: i8, b: u8, c: i16, d: u16, h: f16, g: bf16,
                               oa: global<i8>, ob: global<u8>, oc: global<i16>, od: global<u16>, oh: global<f16>, og: global<bf16>) {
  oa[0] = a; ob[0] = b; oc[0] = c; od[0] = d; oh[0] = h; og[0] = g;
}
device_kernel spin(cycles: i64, done: global<i32>) {
  let i: i64 = 0;
  while (i < cycles) { i = i + 1; }
  done[0] = 1;
}
`;

function nvccSkip(): string | undefined {
  try {
    findNvcc(process.env);
    return undefined;
  } catch {
    return "nvcc not found: the modules are built from .gk source";
  }
}

/** Why the fake-driver device tests skip here, if they do. */
export const fakeSkip = nvccSkip();

/** Builds the fake driver into a temporary folder and points the process at it (GK_LIBCUDA); the module cache to use. */
export async function setUpFakeGpu(name: string): Promise<string> {
  await Promise.all([ensureLauncher(), ensureAddon()]);
  const dir = tempDir(name);
  Object.assign(process.env, await buildFakeDriver(dir));
  return join(dir, "cache");
}

export { failure } from "../launcher/helpers.js";
