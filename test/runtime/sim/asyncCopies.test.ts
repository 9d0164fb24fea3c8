/**
 * Asynchronous copies on the simulator (src/runtime/sim/asyncCopies.ts): what a copy moves (4,
 * 8 and 16 bytes, the zero-filled tail), the groups cpAsyncWait counts, and the visibility rule
 * checked exactly: a pending destination read or written (GK8050, GK8051) by the copying thread
 * or another, another thread's read after the wait but before a barrier (GK8050), a copy never
 * waited for (GK8052), a valid count out of range (GK8053), misaligned and out-of-bounds copies
 * (GK8030, GK8001), a write of a pending copy's source (GK8051); with race checking, the completed copy is the copying thread's write.
 */
import { describe, expect, it } from "vitest";
import { gk, run, simErrorOf } from "./helpers.js";

const p = gk(`
device_kernel tiles(src: readonly global<f32>, out: global<f32>, n: i32) {
  shared a: f32[2][64];
  const t = threadIdx.x;
  cpAsync(a[0], 4 * t, src, 4 * t, 16);
  cpAsyncCommit();
  cpAsync(a[1], 4 * t, src, 64 + 4 * t, 16, clamp(n - 64 - 4 * t, 0, 4));
  cpAsyncCommit();
  cpAsyncWait(1);
  barrier();
  out[t] = a[0][(t + 1) % 64];
  cpAsyncWait(0);
  barrier();
  out[64 + t] = a[1][63 - t];
}
device_kernel sizes(src: readonly global<u16>, out: global<u16>) {
  shared s: u16[32];
  const t = threadIdx.x;
  s[t] = 7;
  barrier();
  if (t == 0) { cpAsync(s, 0, src, 8, 4); }
  if (t == 1) { cpAsyncL2(s, 8, src, 16, 16); }
  if (t == 2) { cpAsync(s, 16, src, 0, 8, 3); }
  if (t == 3) { cpAsync(s, 24, src, 0, 8, 0); }
  cpAsyncWaitAll();
  barrier();
  out[t] = s[t];
}
device_kernel readPending(src: readonly global<f32>, out: global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncCommit();
  out[threadIdx.x] = a[4 * threadIdx.x];
  cpAsyncWait(0);
}
device_kernel readOther(src: readonly global<f32>, out: global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncCommit();
  cpAsyncWait(0);
  if (threadIdx.x > 0) { out[threadIdx.x] = a[4 * threadIdx.x - 4]; }
}
device_kernel readOtherPending(src: readonly global<f32>, out: global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncCommit();
  syncWarp();
  if (threadIdx.x < 31) { out[threadIdx.x] = a[4 * threadIdx.x + 4]; }
  cpAsyncWait(0);
}
device_kernel writePending(src: readonly global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  a[4 * threadIdx.x + 2] = 1.0;
  cpAsyncWaitAll();
}
device_kernel twoCopies(src: readonly global<f32>) {
  shared a: f32[128];
  cpAsync(a, 0, src, 4 * threadIdx.x, 16);
  cpAsyncWaitAll();
}
device_kernel notWaited(src: readonly global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncCommit();
  cpAsyncWait(1);
}
device_kernel waitTooFew(src: readonly global<f32>, out: global<f32>) {
  shared a: f32[2][128];
  cpAsync(a[0], 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncCommit();
  cpAsync(a[1], 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncCommit();
  cpAsyncWait(1);
  out[threadIdx.x] = a[1][4 * threadIdx.x];
  cpAsyncWait(0);
}
device_kernel badCount(src: readonly global<f32>, v: i32) {
  shared a: f32[128];
  cpAsync(a, 0, src, 0, 16, v);
  cpAsyncWaitAll();
}
device_kernel misaligned(src: readonly global<f32>) {
  shared a: f32[128];
  cpAsync(a, 0, src, 2, 16);
  cpAsyncWaitAll();
}
device_kernel pastEnd(src: readonly global<f32>) {
  shared a: f32[128];
  cpAsync(a, 0, src, 60, 16);
  cpAsyncWaitAll();
}
device_kernel warpPublished(src: readonly global<f32>, out: global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  cpAsyncWaitAll();
  syncWarp();
  out[threadIdx.x] = a[(4 * threadIdx.x + 4) % 128];
}
device_fn load(a: shared f32[128], i: i32): f32 {
  return a[i];
}
device_kernel throughFn(src: readonly global<f32>, out: global<f32>) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, src, 4 * threadIdx.x, 16);
  out[threadIdx.x] = load(a, 4 * threadIdx.x);
  cpAsyncWaitAll();
}
device_kernel writeSource(x: global<f32>, out: global<f32>, own: i32) {
  shared a: f32[128];
  cpAsync(a, 4 * threadIdx.x, x, 4 * threadIdx.x, 16, 3);
  x[4 * threadIdx.x + 3] = 5.0;
  syncWarp();
  if (threadIdx.x == 0) { x[5 - 4 * own] = 6.0; }
  cpAsyncWaitAll();
  x[4 * threadIdx.x] = 7.0;
  barrier();
  out[threadIdx.x] = a[4 * threadIdx.x];
}
`);

const iota = (n: number) => Float32Array.from({ length: n }, (_, i) => i + 1);

describe("asynchronous copies move what they name", () => {
  it("16-byte copies in two groups, the second's tail zero-filled", () => {
    // 16 threads copy 64 elements per row: row 0 is src[0..63], row 1 src[64..n-1] then zeros
    // (thread t reads clamp(n - 64 - 4t, 0, 4) of its 4).
    for (const n of [64, 65, 100, 102, 127, 128]) {
      const out = new Float32Array(128);
      run(p, "tiles", [1], [16], [iota(128), out, n]);
      for (let t = 0; t < 16; t++) expect(out[t]).toBe(t + 2);
      for (let t = 0; t < 16; t++) {
        const j = 63 - t;
        expect(out[64 + t], `n = ${n}, a[1][${j}]`).toBe(64 + j < n ? 64 + j + 1 : 0);
      }
    }
  });

  it("4, 8 and 16 bytes of u16, and a valid count of 3 and of 0", () => {
    const src = Uint16Array.from({ length: 32 }, (_, i) => 1000 + i);
    const out = new Uint16Array(32);
    run(p, "sizes", [1], [32], [src, out]);
    expect([...out.slice(0, 2)]).toEqual([1008, 1009]);
    expect([...out.slice(8, 16)]).toEqual([1016, 1017, 1018, 1019, 1020, 1021, 1022, 1023]);
    expect([...out.slice(16, 20)]).toEqual([1000, 1001, 1002, 0]);
    expect([...out.slice(24, 28)]).toEqual([0, 0, 0, 0]);
  });

  it("a syncWarp() publishes a completed copy to its warp", () => {
    const out = new Float32Array(32);
    run(p, "warpPublished", [1], [32], [iota(128), out]);
    expect(out[31]).toBe(1);
  });

  it("race checking sees a completed copy as the copying thread's write, ordered by the barrier", () => {
    const out = new Float32Array(128);
    run(p, "tiles", [1], [16], [iota(128), out, 128], { checkRaces: true });
    expect(out[15]).toBe(17);
  });
});

describe("the visibility rule", () => {
  const err = (kernel: string, block: number, args: unknown[]) => simErrorOf(p.sources, () => run(p, kernel, [1], [block], args as never));
  const out = () => new Float32Array(32);

  it("a read of a pending destination by the copying thread (GK8050)", () => {
    expect(err("readPending", 32, [iota(128), out()])).toBe(
      "GK8050 33:22 read of shared a[0] while the asynchronous copy into it started at line 31 is pending: thread (0,0,0) of block (0,0,0) has not waited for it; wait first (cpAsyncCommit(), then cpAsyncWait(n) or cpAsyncWaitAll()) (kernel 'readPending')",
    );
  });

  it("another thread's read while the copy is pending, or after its wait but before a barrier (GK8050)", () => {
    expect(err("readOtherPending", 32, [iota(128), out()])).toBe(
      "GK8050 48:46 read of shared a[4] by thread (0,0,0) of block (0,0,0) while the asynchronous copy into it started at line 45 by thread (1,0,0) of block (0,0,0) is pending: the copying thread must wait for it (cpAsyncWait) and the block pass a barrier() before other threads use it (kernel 'readOtherPending')",
    );
    expect(err("readOther", 32, [iota(128), out()])).toBe(
      "GK8050 41:45 read of shared a[0] by thread (1,0,0) of block (0,0,0), which thread (0,0,0) of block (0,0,0) filled by an asynchronous copy (started at line 38) and waited for, with no barrier() since: other threads see a copy's data only after the copying thread's wait and a barrier() (kernel 'readOther')",
    );
  });

  it("a write of a pending destination, by a store or by another copy (GK8051)", () => {
    expect(err("writePending", 32, [iota(128)])).toMatch(/^GK8051 54:3 write of shared a\[2\] while the asynchronous copy into it started at line 53 is pending/);
    expect(err("twoCopies", 32, [iota(128)])).toMatch(/^GK8051 59:3 write of shared a\[0\] by thread \(1,0,0\) of block \(0,0,0\), which thread \(0,0,0\) of block \(0,0,0\) filled by an asynchronous copy/);
  });

  it("a group cpAsyncWait(1) leaves pending is still pending (GK8050); a copy never waited for (GK8052)", () => {
    expect(err("waitTooFew", 32, [iota(128), out()])).toMatch(/^GK8050 75:22 read of shared a\[1\]\[0\] while the asynchronous copy into it started at line 72 is pending/);
    expect(err("notWaited", 32, [iota(128)])).toBe(
      "GK8052 64:3 thread (0,0,0) of block (0,0,0) ended with an asynchronous copy into shared a[0] committed but never waited for: wait for every copy (cpAsyncWait(0) or cpAsyncWaitAll()) before a thread ends, as the GPU requires its shared memory to stay while a copy writes it (kernel 'notWaited')",
    );
  });

  it("a write of a pending copy's source, by the copying thread or another (GK8051); of what it does not read, or after the wait, is none", () => {
    expect(err("writeSource", 32, [iota(128), out(), 0])).toBe(
      "GK8051 114:27 write of global x[5] by thread (0,0,0) of block (0,0,0) while the asynchronous copy started at line 111 by thread (1,0,0) of block (0,0,0) reads it: a copy reads its source at any moment until the copying thread waits for it (cpAsyncWait), so write it after that wait (and, from another thread, after a barrier()) (kernel 'writeSource')",
    );
    expect(err("writeSource", 32, [iota(128), out(), 1])).toMatch(/^GK8051 114:27 write of global x\[1\] while the asynchronous copy started at line 111 by thread \(0,0,0\) of block \(0,0,0\) reads it/);
    // One thread: it writes what its copy does not read (valid 3: x[3], x[5]), then after its wait.
    const x = iota(128), o = new Float32Array(32);
    run(p, "writeSource", [1], [1], [x, o, 0]);
    expect([x[0], x[1], x[2], x[3], x[5], o[0]]).toEqual([7, 2, 3, 5, 6, 1]);
  });

  it("through a device function's shared parameter", () => {
    expect(err("throughFn", 32, [iota(128), out()])).toMatch(/^GK8050 101:10 read of shared a\[0\] while the asynchronous copy into it started at line 105 is pending/);
  });

  it("a valid count out of range (GK8053), a misaligned or out-of-bounds copy (GK8030, GK8001)", () => {
    expect(err("badCount", 1, [iota(128), 5])).toBe(
      "GK8053 80:3 the valid count of an asynchronous copy from src is 5: a copy of 4 elements reads 0 to 4 of them, and zero-fills the rest (kernel 'badCount', thread (0,0,0), block (0,0,0))",
    );
    expect(err("badCount", 1, [iota(128), -1])).toMatch(/^GK8053 80:3 the valid count of an asynchronous copy from src is -1/);
    expect(err("misaligned", 1, [iota(128)])).toMatch(/^GK8030 85:3 misaligned 4-lane vector read of src\[2\]/);
    expect(err("pastEnd", 1, [iota(62)])).toBe("GK8001 90:3 out-of-bounds read src[60]: src has 62 elements (kernel 'pastEnd', thread (0,0,0), block (0,0,0))");
  });
});
