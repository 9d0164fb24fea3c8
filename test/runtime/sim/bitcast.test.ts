/** The simulator on bitcast<T>(v): bits through unchanged, NaN payloads kept, f16 and bf16 signaling NaNs too, and f32/f64 ones where the bitcast meets memory. */
import { describe, expect, it } from "vitest";
import { gk, run } from "./helpers.js";

describe("bitcast on the simulator", () => {
  it("moves bits between floats, integers and vectors, keeping NaN payloads", () => {
    const p = gk(`device_kernel k(x: global<f32>, u: global<u32>, h: global<u16>, d: global<f64>, o: global<u32>, of: global<f32>, oh: global<f16>, ob: global<bf16>, ol: global<i64>) {
  const i = threadIdx.x;
  o[i] = bitcast<u32>(x[i]);
  of[i] = bitcast<f32>(u[i]);
  oh[i] = bitcast<f16>(h[i]);
  ob[i] = bitcast<bf16>(bitcast<f16>(h[i]));
  ol[i] = bitcast<i64>(d[i]);
  let v = bitcast<f16x2>(u[i]);
  o[4 + i] = bitcast<u32>(f16x2(v.y, v.x));
}
`);
    const xBits = new Uint32Array([0x3f800000, 0x80000000, 0x7fc00123, 0xffffffff]);
    const x = new Float32Array(xBits.buffer);
    const u = new Uint32Array([0x40490fdb, 0x00000001, 0xfbc0abcd, 0x3c00c000]);
    const h = new Uint16Array([0x7c01, 0xfe00, 0x0001, 0x7fff]);
    const d = new Float64Array(new BigUint64Array([0x3ff0000000000000n, 0x7ff8000000000001n, 0x8000000000000000n, 1n]).buffer);
    const o = new Uint32Array(8), of = new Float32Array(4), oh = new Uint16Array(4), ob = new Uint16Array(4), ol = new BigInt64Array(4);
    run(p, "k", [1], [4], [x, u, h, d, o, of, oh, ob, ol]);
    expect([...o.slice(0, 4)]).toEqual([...xBits]);
    expect([...new Uint32Array(of.buffer)]).toEqual([...u]);
    expect([...oh]).toEqual([...h]);
    expect([...ob]).toEqual([...h]);
    expect([...ol]).toEqual([0x3ff0000000000000n, 0x7ff8000000000001n, -(2n ** 63n), 1n]);
    expect([...o.slice(4)]).toEqual([0x0fdb4049, 0x00010000, 0xabcdfbc0, 0xc0003c00]);
  });

  it("keeps a signaling f32 or f64 NaN where the bitcast reads the element or its result is stored (as the GPU does)", () => {
    const p = gk(`device_kernel k(x: readonly global<f32>, u: readonly global<u32>, d: readonly global<f64>, w: readonly global<u64>,
                  o: global<u32>, of: global<f32>, od: global<i64>, ow: global<f64>, sh: global<u32>) {
  shared s: f32[4];
  const i = threadIdx.x;
  o[i] = bitcast<u32>(x[i]);
  of[i] = bitcast<f32>(u[i]);
  od[i] = bitcast<i64>(d[i]);
  ow[i] = bitcast<f64>(w[i] ^ u64(0));
  s[i] = bitcast<f32>(u[i]);
  barrier();
  sh[i] = bitcast<u32>(s[3 - i]);
}
`);
    // Signaling NaNs (quiet bit clear) of both signs, a quiet one, and a number.
    const bits32 = new Uint32Array([0x7f800001, 0xff83d60f, 0x7fc00001, 0x3f800000]);
    const bits64 = new BigUint64Array([0x7ff0000000000001n, 0xfff4000000000abcn, 0x7ff8000000000000n, 0x4000000000000000n]);
    const o = new Uint32Array(4), of = new Float32Array(4), od = new BigInt64Array(4), ow = new Float64Array(4), sh = new Uint32Array(4);
    run(p, "k", [1], [4], [new Float32Array(bits32.buffer), bits32, new Float64Array(bits64.buffer), bits64, o, of, od, ow, sh]);
    expect([...o]).toEqual([...bits32]);
    expect([...new Uint32Array(of.buffer)]).toEqual([...bits32]);
    expect([...new BigUint64Array(od.buffer)]).toEqual([...bits64]);
    expect([...new BigUint64Array(ow.buffer)]).toEqual([...bits64]);
    expect([...sh]).toEqual([...bits32].reverse());
  });

  it("still reports a bitcast read of shared memory no thread has written (GK8013), and counts a NaN stored through bits as written", () => {
    const p = gk(`device_kernel k(u: readonly global<u32>, o: global<u32>) {
  shared s: f32[4];
  const i = threadIdx.x;
  if (i < 2) {
    s[i] = bitcast<f32>(u[i]);
  }
  barrier();
  o[i] = bitcast<u32>(s[i]);
}
`);
    const o = new Uint32Array(4);
    let message = "";
    try {
      run(p, "k", [1], [4], [new Uint32Array([0x7f800001, 0x7fc00000, 0, 0]), o]);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^GK8013\b.*read of shared s\[2\] before any thread of block \(0,0,0\) wrote it/);
    expect([...o.slice(0, 2)]).toEqual([0x7f800001, 0x7fc00000]);
  });
});

