/**
 * The cache-hinted accesses (src/check/cacheHints.ts): `loadStreaming`, `storeStreaming`,
 * `loadReadOnly` and their 2- and 4-lane forms check into loads and stores with `cache` set,
 * of global memory only (GK3022), `loadReadOnly` of a kernel's readonly array only; the
 * simulator computes what plain accesses compute.
 */
import { describe, expect, it } from "vitest";
import { expectDiagnostics, expectError, printed } from "../helpers.js";
import { gk, run } from "../runtime/sim/helpers.js";

const PARAMS = "n: i32, x: readonly global<f32>, v: readonly global<f32x4>, y: global<f32>, d: global<f64>, h: global<f16>";

describe("cache-hinted accesses", () => {
  it("are loads and stores with a cache hint, of one element or of 2 or 4 as a vector", () => {
    const ir = printed(`device_kernel k(${PARAMS}) {
  const i = globalId.x;
  storeStreaming4(y, 4 * i, loadStreaming4(x, 4 * i) + loadReadOnly4(x, 4 * i));
  storeStreaming(y, i, loadStreaming(v, i).x + loadReadOnly(x, i));
  storeStreaming2(h, 2 * i, loadStreaming2(h, 2 * i));
}`);
    expect(ir).toContain("store.streaming y[4:i32 *.i32 i..+4] = load.streaming(x[4:i32 *.i32 i..+4]) +.f32x4 load.readOnly(x[4:i32 *.i32 i..+4]);");
    expect(ir).toContain("store.streaming y[i] = load.streaming(v[i]).x +.f32 load.readOnly(x[i]);");
    expect(ir).toContain("store.streaming h[2:i32 *.i32 i..+2] = load.streaming(h[2:i32 *.i32 i..+2]);");
  });

  it("take global memory only (GK3022)", () => {
    expectError("device_kernel k(o: global<f32>) { shared s: f32[32]; s[0] = 1.0; o[0] = loadStreaming(s, 0); }", "GK3022 1:87 loadStreaming() is a cache hint for global memory, but 's' is shared memory");
    expectError("device_kernel k(o: global<f32>) { let l: f32[4]; storeStreaming(l, 0, 1.0); o[0] = l[0]; }", "GK3022 1:65 storeStreaming() is a cache hint for global memory, but 'l' is a local array");
  });

  it("read through the read-only cache only a kernel's readonly arrays (GK3022)", () => {
    expectError("device_kernel k(o: global<f32>) { o[0] = loadReadOnly(o, 1); }", "GK3022 1:55 loadReadOnly() reads through a cache that does not see this launch's writes, but 'o' is a writable array (global<f32>)");
    expectError(
      "device_fn f(x: readonly global<f32>): f32 { return loadReadOnly(x, 0); }\ndevice_kernel k(x: readonly global<f32>, o: global<f32>) { o[0] = f(x); }",
      "GK3022 1:65 loadReadOnly() reads arrays no thread writes during the launch, which only a kernel knows",
    );
    expectDiagnostics("device_fn f(x: readonly global<f32>): f32 { return loadStreaming(x, 0); }\ndevice_kernel k(x: readonly global<f32>, o: global<f32>) { o[0] = f(x) + loadReadOnly(x, 1); }", []);
  });

  it("refuse writes to readonly arrays (GK2007), elements they cannot move (GK3022) and a store used as a value (GK3018)", () => {
    expectError("device_kernel k(x: readonly global<f32>) { storeStreaming(x, 0, 1.0); }", "GK2007 1:59 storeStreaming() writes to 'x'");
    expectError("device_kernel k(x: readonly global<f64>, o: global<f64>) { o[0] = loadStreaming4(x, 0).x; }", "GK3022 1:82 loadStreaming4() moves at most 16 bytes in one access, but f64x4 takes 32: use loadStreaming2 twice");
    expectError("device_kernel k(x: readonly global<i8>, o: global<i8>) { o[0] = loadStreaming4(x, 0).x; }", "GK3022 1:80 loadStreaming4() moves ");
    expectError("device_kernel k(o: global<f32>) { const a = storeStreaming(o, 0, 1.0); }", "GK3018 1:45 storeStreaming() has no value");
  });

  it("compute on the simulator what plain accesses compute", () => {
    const p = gk(`device_kernel k(${PARAMS}) {
  const i = globalId.x;
  if (4 * i < n) {
    storeStreaming4(y, 4 * i, loadStreaming4(x, 4 * i) + loadReadOnly4(x, 4 * i) * loadReadOnly(v, i));
    storeStreaming2(d, 2 * i, loadStreaming2(d, 2 * i) + f64(loadReadOnly(x, i)));
    storeStreaming(h, i, loadStreaming(h, i) + f16(1.0));
  }
}`);
    const x = Float32Array.from({ length: 16 }, (_, k) => k + 0.5);
    const v = Float32Array.from({ length: 16 }, (_, k) => 16 - k);
    const y = new Float32Array(16);
    const d = Float64Array.from({ length: 16 }, (_, k) => k * 0.25);
    const h = new Uint16Array(16);
    run(p, "k", [1], [4], [16, x, v, y, d, h]);
    expect([...y]).toEqual([...x].map((a, k) => a + a * v[k]!));
    expect([...d].slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, k) => k * 0.25 + x[k >> 1]!));
    expect([...h].slice(0, 4)).toEqual([0x3c00, 0x3c00, 0x3c00, 0x3c00]);
  });
});
