/** Shared memory and barriers: CUDA's meaning, and the divergence the simulator reports (GK8002). */
import { describe, expect, it } from "vitest";
import { compileKernel } from "../../../src/runtime/sim/index.js";
import { gk, run, simErrorOf } from "./helpers.js";

const p = gk(`const N = 64;

device_kernel reverse(data: global<i32>) {
  shared buf: i32[N];
  const t = threadIdx.x;
  buf[t] = data[blockIdx.x * N + t];
  barrier();
  data[blockIdx.x * N + t] = buf[N - 1 - t];
}

device_kernel reverse_racy(data: global<i32>) {
  shared buf: i32[N];
  const t = threadIdx.x;
  buf[t] = data[blockIdx.x * N + t];
  data[blockIdx.x * N + t] = buf[N - 1 - t];
}

device_kernel diverge(out: global<i32>) {
  if (threadIdx.x < 5) {
    barrier();
  } else {
    barrier();
  }
}

device_kernel early(out: global<i32>) {
  if (blockIdx.x == 1 && threadIdx.x == 3) {
    return;
  }
  barrier();
  out[threadIdx.x] = 1;
}

device_kernel trips(out: global<i32>) {
  for (let i = 0; i < threadIdx.x; i += 1) {
    barrier();
  }
}

device_fn sync_then_read(data: global<i32>, i: i32): i32 {
  barrier();
  return data[i];
}

device_fn twice(data: global<i32>, i: i32): i32 {
  const a = sync_then_read(data, i);
  data[i] = a + 1;
  return sync_then_read(data, i);
}

device_kernel rotate(data: global<i32>, out: global<i32>) {
  const t = threadIdx.x;
  data[t] = t * 10;
  out[t] = sync_then_read(data, (t + 1) % blockDim.x);
}

device_kernel two_sites(data: global<i32>, out: global<i32>) {
  if (threadIdx.x == 0) {
    out[0] = sync_then_read(data, 0);
  } else {
    out[1] = sync_then_read(data, 1);
  }
}

device_kernel nested(data: global<i32>, out: global<i32>, rounds: i32) {
  const t = threadIdx.x;
  for (let r = 0; r < rounds; r += 1) {
    out[t] += twice(data, t);
    barrier();
  }
}

device_kernel counted(out: global<i32>) {
  shared s: i32[4][4];
  s[threadIdx.y][threadIdx.x] = threadIdx.y * 4 + threadIdx.x;
  barrier();
  out[globalId.y * 8 + globalId.x] = s[threadIdx.x][threadIdx.y];
}
`);

const err = (f: () => unknown) => simErrorOf(p.sources, f);
const iota = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe("shared memory and barrier()", () => {
  it("reverses each block through shared memory when there is a barrier", () => {
    const data = iota(192);
    run(p, "reverse", [3], [64], [data]);
    expect([...data]).toEqual([...iota(192)].map((_, i) => Math.floor(i / 64) * 64 + 63 - (i % 64)));
  });

  it("without the barrier, reading what another thread has not yet written is reported", () => {
    expect(err(() => run(p, "reverse_racy", [3], [64], [iota(192)]))).toBe(
      "GK8013 15:30 read of shared buf[63] before any thread of block (0,0,0) wrote it: store it first, and put a barrier() between the store and this read when another thread stores it (kernel 'reverse_racy', thread (0,0,0), block (0,0,0))",
    );
  });

  it("without the barrier and without the check, the result is wrong", () => {
    const data = iota(64);
    run(p, "reverse_racy", [1], [64], [data], { checkUninitializedShared: false });
    expect([...data]).not.toEqual([...iota(64)].reverse());
    expect(data[0]).toBe(0); // thread 0 read buf[63] before thread 63 wrote it
  });

  it("gives each block fresh shared memory, on 2-D blocks and grids", () => {
    const out = new Int32Array(64);
    run(p, "counted", [2, 2], [4, 4], [out]);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(out[y * 8 + x]).toBe((x % 4) * 4 + (y % 4));
  });

  it("runs kernels with barriers on the barrier path, others on the fast path", () => {
    expect(compileKernel(p.ir, "reverse").usesBarriers).toBe(true);
    expect(compileKernel(p.ir, "reverse_racy").usesBarriers).toBe(false);
    expect(compileKernel(p.ir, "rotate").usesBarriers).toBe(true);
  });
});

describe("barrier divergence (GK8002)", () => {
  it("threads at different barriers", () => {
    expect(err(() => run(p, "diverge", [1], [8], [new Int32Array(1)]))).toBe(
      "GK8002 20:5 threads of block (0,0,0) reached different barriers: thread (0,0,0) at line 20, thread (5,0,0) at line 22 (kernel 'diverge')",
    );
  });

  it("a thread that exits while others wait at a barrier", () => {
    expect(err(() => run(p, "early", [2], [8], [new Int32Array(8)]))).toBe(
      "GK8002 30:3 thread (3,0,0) of block (1,0,0) exited while thread (0,0,0) waits at the barrier at line 30: every thread of a block must reach each barrier (kernel 'early')",
    );
  });

  it("barriers in loops with a different trip count per thread", () => {
    expect(err(() => run(p, "trips", [1], [4], [new Int32Array(1)]))).toBe(
      "GK8002 36:5 thread (0,0,0) of block (0,0,0) exited while thread (1,0,0) waits at the barrier at line 36: every thread of a block must reach each barrier (kernel 'trips')",
    );
    run(p, "trips", [4], [1], [new Int32Array(1)]); // one thread per block: nothing to wait for
  });

  it("the same barrier of a device_fn reached through different calls", () => {
    expect(err(() => run(p, "two_sites", [1], [2], [iota(2), new Int32Array(2)]))).toBe(
      "GK8002 41:3 threads of block (0,0,0) reached different barriers: thread (0,0,0) at line 41 via the call of sync_then_read at line 59, thread (1,0,0) at line 41 via the call of sync_then_read at line 61 (kernel 'two_sites')",
    );
  });

  it("notes where the other thread waits", () => {
    try {
      run(p, "diverge", [1], [8], [new Int32Array(1)]);
    } catch (e) {
      const d = (e as { diagnostic: { notes: { message: string }[] } }).diagnostic;
      expect(d.notes.map((n) => n.message)).toEqual([
        "thread (5,0,0) waits at this barrier",
        "in kernel 'diverge': every thread of a block must reach the same barriers, in the same order",
      ]);
    }
  });
});

describe("barriers inside device_fns", () => {
  it("synchronize the block like a barrier in the kernel", () => {
    const out = new Int32Array(16);
    run(p, "rotate", [1], [16], [new Int32Array(16), out]);
    expect([...out]).toEqual([...iota(16)].map((t) => ((t + 1) % 16) * 10));
  });

  it("through nested calls and loops", () => {
    const data = new Int32Array(8);
    const out = new Int32Array(8);
    run(p, "nested", [1], [8], [data, out, 3]);
    // Each round: a = data[t]; data[t] = a + 1; out[t] += data[t]. Rounds add 1, 2, 3.
    expect([...data]).toEqual(Array(8).fill(3));
    expect([...out]).toEqual(Array(8).fill(6));
  });
});
