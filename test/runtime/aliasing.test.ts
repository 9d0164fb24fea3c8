/**
 * The aliasing rule (spec/language.md, Types): an array argument the kernel may write
 * shares no memory with any other array argument of the same launch. Two TypedArray
 * views of one ArrayBuffer whose byte ranges overlap are refused before anything runs,
 * on every path that takes host arrays: the TypeScript API, the simulator's argument
 * check, and gk/testing's CPU-vs-GPU comparison; the error names both parameters.
 * Views of one buffer that do not overlap, and readonly arrays that do, are fine.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSource, GkRuntimeError, SimError } from "../../src/index.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { sharedMemory } from "../../src/runtime/aliasing.js";
import { compileKernel, runKernel } from "../../src/runtime/sim/index.js";
import { compareCpuGpu } from "../../src/testing/index.js";

// out[i] = x[i] + 1 with out starting one element past x in the same memory: thread i
// writes what thread i + 1 reads, so the simulator, running threads in order over that
// memory, and a GPU, given a copy of each argument, would compute different things.
const src = `device_kernel shift(n: i32, x: readonly global<i32>, out: global<i32>) {
  const i = globalId.x;
  if (i < n) { out[i] = x[i] + 1; }
}
device_kernel two(a: global<i32>, b: global<f32>) { a[0] = 1; b[0] = 2.0; }
device_kernel reads(x: readonly global<i32>, y: readonly global<i32>, out: global<i32>) { out[0] = x[0] + y[0]; }
`;

function overlapping(): { x: Int32Array; out: Int32Array } {
  const buf = new ArrayBuffer(4 * 9);
  return { x: new Int32Array(buf, 0, 8), out: new Int32Array(buf, 4, 8) };
}

const SHARED = /'out'.*'x'.*share memory|'x'.*'out'.*share memory/;

describe("the TypeScript API", () => {
  it("refuses a written array whose memory overlaps another argument's, naming both, before running", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    const { x, out } = overlapping();
    const e = await mod.shift({ grid: 1, block: 8 }, { n: 8, x, out }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(GkRuntimeError);
    expect((e as GkRuntimeError).diagnostic.code).toBe("GK8005");
    expect((e as GkRuntimeError).message).toMatch(SHARED);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    await mod.close();
  });

  it("refuses overlapping views of other element types, and two written arrays that overlap", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    const buf = new ArrayBuffer(16);
    const e = await mod.two({ grid: 1, block: 1 }, { a: new Int32Array(buf, 0, 2), b: new Float32Array(buf, 4, 2) }).catch((err: unknown) => err);
    expect((e as GkRuntimeError).message).toMatch(/'a'.*'b'.*share memory/);
    await mod.close();
  });

  it("accepts views of one buffer that do not overlap, an empty view, and readonly arrays that overlap", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    const buf = new ArrayBuffer(4 * 8);
    const x = new Int32Array(buf, 0, 4).fill(5);
    const out = new Int32Array(buf, 16, 4);
    await mod.shift({ grid: 1, block: 4 }, { n: 4, x, out });
    expect([...out]).toEqual([6, 6, 6, 6]);
    await mod.shift({ grid: 1, block: 4 }, { n: 0, x, out: new Int32Array(buf, 8, 0) });
    const shared = Int32Array.from([1, 2]);
    const r = await mod.reads({ grid: 1, block: 1 }, { x: shared, y: shared.subarray(0, 1), out: new Int32Array(1) });
    expect([...r.out!]).toEqual([2]);
    await mod.close();
  });
});

describe("the simulator", () => {
  it("refuses overlapping arguments with GK8005 at the written parameter", () => {
    const fe = frontEnd("alias.gk", { host: memoryHost({ "alias.gk": src }) });
    const { x, out } = overlapping();
    let e: unknown;
    try {
      runKernel(compileKernel(fe.ir!, "shift", fe.sources), { grid: [1], block: [8] }, [8, x, out]);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(SimError);
    expect((e as SimError).diagnostic.code).toBe("GK8005");
    expect((e as SimError).diagnostic.message).toMatch(SHARED);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe("gk/testing", () => {
  it("refuses overlapping arguments before running either side", async () => {
    const { x, out } = overlapping();
    const e = await compareCpuGpu(src, "shift", { grid: 1, block: 8 }, { n: 8, x, out }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(GkRuntimeError);
    expect((e as GkRuntimeError).diagnostic.code).toBe("GK8005");
    expect((e as GkRuntimeError).message).toMatch(SHARED);
  });
});

describe("sharedMemory", () => {
  const fn = frontEnd("alias.gk", { host: memoryHost({ "alias.gk": src }) }).ir!.kernels.find((k) => k.name === "reads")!;
  it("finds a written array sharing memory exactly when the byte ranges intersect", () => {
    fc.assert(
      fc.property(fc.nat(16), fc.nat(16), fc.nat(16), fc.nat(16), fc.boolean(), (xOff, xLen, oOff, oLen, sameBuffer) => {
        const buf = new ArrayBuffer(4 * 40);
        const x = new Int32Array(buf, 4 * xOff, xLen);
        const out = new Int32Array(sameBuffer ? buf : new ArrayBuffer(4 * 40), 4 * oOff, oLen);
        const intersects = sameBuffer && Math.max(xOff, oOff) < Math.min(xOff + xLen, oOff + oLen);
        const found = sharedMemory(fn, [x, new Int32Array(1), out]);
        expect(found !== undefined).toBe(intersects);
        if (found) expect([found.written.name, found.other.name]).toEqual(["out", "x"]);
      }),
      { numRuns: 500, seed: 20261201 },
    );
  });
});
