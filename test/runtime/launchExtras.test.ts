/**
 * The API's launch extras (src/runtime/launchExtras.ts) on the CPU simulator: constant arrays
 * given by name among the arguments of each launch (typed or plain arrays), dynamic shared
 * lengths by name in the launch config, and the errors that name what is wrong.
 */
import { describe, expect, it } from "vitest";
import { compileSource, GkRuntimeError, openDevice } from "../../src/index.js";
import type { SimError } from "../../src/runtime/sim/index.js";

const src = `constant TAPS: f32[3];
constant UNUSED: i32[2];
device_kernel k(n: i32, x: readonly global<f32>, out: global<f32>) {
  shared buf: f32[];
  shared wide: f64[];
  const t = threadIdx.x;
  buf[t] = x[t] * TAPS[t % 3];
  wide[t] = f64(buf[t]);
  barrier();
  out[t] = buf[n - 1 - t] + f32(wide[t]);
}`;

async function failure(args: Record<string, unknown>, shared: unknown): Promise<GkRuntimeError> {
  const mod = await compileSource(src, { device: "cpu" });
  const e = await mod.launch("k", { grid: 1, block: 4, shared } as never, args as never).catch((x: unknown) => x);
  await mod.close();
  expect(e).toBeInstanceOf(GkRuntimeError);
  return e as GkRuntimeError;
}

const good = () => ({ n: 4, x: Float32Array.of(1, 2, 3, 4), out: new Float32Array(4), TAPS: Float32Array.of(1, 10, 100) });

describe("constant arrays and dynamic shared memory through the API", () => {
  it("take constants by name with the arguments and shared lengths by name in the config, per launch", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    const out = new Float32Array(4);
    await mod.launch("k", { grid: 1, block: 4, shared: { buf: 4, wide: 4 } }, { ...good(), out });
    // buf = x * taps = [1, 20, 300, 4]; out[t] = buf[3 - t] + buf[t].
    expect([...out]).toEqual([5, 320, 320, 5]);
    await mod.launch("k", { grid: 1, block: 4, shared: { buf: 4, wide: 4 } }, { ...good(), out, TAPS: [2, 2, 2] });
    expect([...out]).toEqual([10, 10, 10, 10]);
    await mod.close();
  });

  it("name a missing or wrong constant array (GK8005)", async () => {
    const { TAPS: _, ...noTaps } = good();
    const shared = { buf: 4, wide: 4 };
    expect((await failure(noTaps, shared)).diagnostic.message).toBe("k: missing argument 'TAPS', a constant array it reads (f32, 3 elements)");
    const short = await failure({ ...good(), TAPS: Float32Array.of(1, 2) }, shared);
    expect(short.code).toBe("GK8005");
    expect(short.diagnostic.message).toMatch(/^k: .*TAPS.*3.*2/);
    expect((await failure({ ...good(), TAPS: ["a", 1, 2] }, shared)).diagnostic.message).toBe("k: element 0 of the constant array 'TAPS' is not a f32: a");
    expect((await failure({ ...good(), UNUSED: [1, 2] }, shared)).diagnostic.message).toBe(
      "k: there is no parameter 'UNUSED' (parameters: n, x, out; constant arrays it reads: TAPS)",
    );
  });

  it("name a missing, unknown or too large dynamic shared length (GK8010)", async () => {
    const missing = await failure(good(), { buf: 4 });
    expect(missing.code).toBe("GK8010");
    expect(missing.diagnostic.message).toBe("k: missing the length of 'wide': give { shared: { wide: ... } }");
    expect((await failure(good(), undefined)).diagnostic.message).toBe("k: missing the length of 'buf', 'wide': give { shared: { buf: ..., wide: ... } }");
    expect((await failure(good(), { buf: 4, wide: 4, bufs: 1 })).diagnostic.message).toBe("k: there is no dynamic shared array 'bufs'; did you mean 'buf'? (its dynamic shared arrays: buf, wide)");
    expect((await failure(good(), [4, 4])).diagnostic.message).toBe("k: 'shared' is the length of each dynamic shared array by name, e.g. { shared: { buf: 256 } }");
    expect((await failure(good(), { buf: 4, wide: 30_000 })).diagnostic.message).toBe(
      "k: it would use 240016 bytes of shared memory per block (0 in fixed-size arrays); a block may use at most 232448 (the H100's opt-in maximum)",
    );
    expect((await failure(good(), { buf: 1.5, wide: 4 })).diagnostic.message).toBe("k: the length of the dynamic shared array 'buf' must be an integer from 0 to 232448, got 1.5");
  });

  it("bounds-check against the launch's length on the simulator", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    const e = await mod.launch("k", { grid: 1, block: 4, shared: { buf: 3, wide: 4 } }, good()).catch((x: unknown) => x);
    await mod.close();
    expect((e as SimError).diagnostic.message).toBe("out-of-bounds write buf[3]: buf (shared f32[]) has 3 elements in this launch (kernel 'k', thread (3,0,0), block (0,0,0))");
  });
});

const genericSrc = `constant W: f32[2];
device_kernel scale<T: f32 | f64, N: i32>(x: readonly global<T>, out: global<T>) {
  shared buf: T[];
  shared fixed: T[N];
  const t = threadIdx.x;
  fixed[t % N] = T(W[t % 2]);
  buf[t] = x[t] * fixed[t % N];
  barrier();
  out[t] = buf[t];
}
launch scale<f64, 2>(x = [1.0, 2.0, 3.0, 4.0], out = zeros(4), W = [2.0, 3.0]) grid(1) block(4) shared(buf = 4);`;

describe("constant arrays and dynamic shared memory of generic kernels", () => {
  it("go with an instance's launch, from with(), by its name, and from a launch statement", async () => {
    const mod = await compileSource(genericSrc, { device: "cpu" });
    const out = new Float32Array(4);
    await mod.scale!.with({ T: "f32", N: 2 })({ grid: 1, block: 4, shared: { buf: 4 } }, { x: Float32Array.of(1, 2, 3, 4), out, W: [10, 100] });
    expect([...out]).toEqual([10, 200, 30, 400]);
    await mod.launch("scale<f32, 2>", { grid: 1, block: 4, shared: { buf: 4 } }, { x: Float32Array.of(1, 1, 1, 1), out, W: [5, 6] });
    expect([...out]).toEqual([5, 6, 5, 6]);
    const e = await mod.launch("scale<f32, 2>", { grid: 1, block: 4 }, { x: Float32Array.of(1, 1, 1, 1), out, W: [5, 6] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GkRuntimeError);
    expect((e as GkRuntimeError).message).toContain("missing the length of 'buf'");
    const [outcome] = await mod.runLaunches();
    expect([...(outcome!.outputs.get("out")!.data as Float64Array)]).toEqual([2, 6, 6, 12]);
    await mod.close();
  });
});

const copySrc = `constant TAPS: f32[4];
device_kernel k(o: global<f32>) { o[0] = 5.0; o[1] = TAPS[0]; }`;

describe("a launch's constant arrays are copies made when it is made, as a GPU's constant memory is", () => {
  it("reads the contents a constant had at the launch, even where it shares memory with an array the kernel writes", async () => {
    const mod = await compileSource(copySrc, { device: "cpu" });
    const o = Float32Array.of(1, 1, 1, 1);
    await mod.launch("k", { grid: 1, block: 1 }, { o, TAPS: o });
    // A GPU copies TAPS into constant memory before the kernel writes o[0]: TAPS[0] is 1.
    expect([...o]).toEqual([5, 1, 1, 1]);
    await mod.close();
  });

  it("runs a TypeScript kernel whose constant shares memory with an array it writes on a copy too", async () => {
    process.env.GK_DEVICE = "cpu";
    const { convolveRows } = await import("../../examples/convolution.js");
    const dst = new Float32Array(512);
    dst[8] = 2; // TAPS is dst's first 17 elements: the centre tap alone, 2
    const src = Float32Array.from({ length: 512 }, (_, i) => i % 7);
    await convolveRows({ grid: [1, 1], block: [16, 4], constants: { TAPS: dst.subarray(0, 17) } }, 128, src, dst);
    expect([...dst]).toEqual([...src].map((v) => 2 * v));
  });

  it("gives a queued launch the constants it was queued with, whatever the caller does to them before it runs", async () => {
    const gpu = await openDevice({ device: "cpu" });
    const mod = await compileSource(copySrc, { device: gpu });
    const o = await gpu.zeros("f32", 4);
    const taps = Float32Array.of(1, 2, 3, 4);
    const queued = mod.launch("k", { grid: 1, block: 1 }, { o, TAPS: taps });
    taps[0] = 99;
    await queued;
    await gpu.sync();
    expect([...(await o.read())]).toEqual([5, 1, 0, 0]);
    await gpu.close();
  });
});
