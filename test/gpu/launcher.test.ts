// gpu_launcher on a real GPU: hand-written kernels (launcher-kernels.cu) built with nvcc into a
// cubin and PTX, run one-shot and through a --serve session; exact results, structured errors,
// and a working launch after each error. Skipped, with a one-line reason, where there is no GPU.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GkRuntimeError, LauncherSession, launchOnce, type KernelArg, type LaunchOnceOptions, type SessionOptions } from "../../src/runtime/launcher.js";
import { FrameReader, encodeFrame, type Frame } from "../../src/runtime/launcher/frames.js";
import { SharedFile } from "../../src/runtime/launcher/shared.js";
import { failure, hexOf, LAUNCHER, removeTempDirs, ROOT, sampleArray, tempDir } from "../runtime/launcher/helpers.js";
import { findNvcc, gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
const nvcc = gpu.ok ? await findNvcc() : undefined;
const skip = !gpu.ok ? gpu.reason : nvcc === undefined ? "nvcc not found (set $NVCC)" : undefined;
if (skip) console.warn(`test/gpu/launcher.test.ts skipped: ${skip}`);

type Mode = "one-shot" | "session";
type Run = (o: Omit<LaunchOnceOptions, "module"> & { module?: string }) => Promise<{ outputs: Map<number, ArrayBufferView> }>;

const modules: Record<"cubin" | "ptx", string> = { cubin: "", ptx: "" };
let session: LauncherSession;
const grid = [1, 1, 1] as const;
const block = [32, 1, 1] as const;

const bits = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

function runner(mode: Mode, module: string): Run {
  return (o) => (mode === "one-shot" ? launchOnce({ module, ...o }) : session.run({ module, ...o }));
}

/** Sessions with other transfer options (pipes only, page-locking on or off), made when first asked for. */
const otherSessions = new Map<string, LauncherSession>();

/** A runner whose launches use `opts` (shared-file threshold, environment). */
function runnerWith(mode: Mode, module: string, opts: SessionOptions): Run {
  if (mode === "one-shot") return (o) => launchOnce({ module, ...opts, ...o });
  const key = JSON.stringify(opts);
  if (!otherSessions.has(key)) otherSessions.set(key, new LauncherSession(opts));
  return (o) => otherSessions.get(key)!.run({ module, ...o });
}

function saxpy(n: number): { args: KernelArg[]; want: Float32Array; grid: [number, number, number]; block: [number, number, number] } {
  const x = Float32Array.from({ length: n }, (_, i) => i % 1000);
  const y = Float32Array.from({ length: n }, (_, i) => (i % 7) - 3);
  return {
    args: [
      { kind: "scalar", type: "i32", value: n },
      { kind: "scalar", type: "f32", value: 2.5 },
      { kind: "array", elem: "f32", data: x, copyBack: false },
      { kind: "array", elem: "f32", data: y, copyBack: false },
      { kind: "array", elem: "f32", length: n, copyBack: true },
    ],
    want: x.map((v, i) => Math.fround(2.5 * v + y[i]!)), // every value here is exact in f32
    grid: [Math.ceil(n / 256), 1, 1],
    block: [256, 1, 1],
  };
}

async function expectSaxpyWorks(run: Run, n = 1000): Promise<void> {
  const s = saxpy(n);
  const r = await run({ kernel: "saxpy", grid: s.grid, block: s.block, args: s.args });
  expect(bits(r.outputs.get(4)!)).toBe(bits(s.want));
}

describe.skipIf(skip !== undefined)(skip ? `gpu_launcher on a GPU (skipped: ${skip})` : `gpu_launcher on ${gpu.reason}`, () => {
  beforeAll(async () => {
    const dir = tempDir("gpu-launcher");
    const src = join(ROOT, "test", "gpu", "launcher-kernels.cu");
    const arch = gpu.device!.arch;
    modules.cubin = join(dir, "kernels.cubin");
    modules.ptx = join(dir, "kernels.ptx");
    await execa(nvcc!, [`-arch=${arch}`, "-cubin", "-o", modules.cubin, src]);
    await execa(nvcc!, [`-arch=${arch}`, "-ptx", "-o", modules.ptx, src]);
    session = new LauncherSession();
  });
  afterAll(async () => {
    await session?.close();
    for (const s of otherSessions.values()) await s.close();
    removeTempDirs();
  });

  it("describes the GPU", () => {
    const d = gpu.device!;
    expect(d.arch).toMatch(/^sm_\d+$/);
    expect(d.maxThreadsPerBlock).toBe(1024);
    expect(d.totalMemBytes).toBeGreaterThan(0);
    expect(d.multiprocessorCount).toBeGreaterThan(0);
    expect(d.driverVersion).toBeGreaterThan(0);
  });

  for (const mode of ["one-shot", "session"] as const) {
    for (const kind of ["cubin", "ptx"] as const) {
      it(`${mode}, ${kind}: saxpy is exact`, async () => {
        await expectSaxpyWorks(runner(mode, modules[kind]));
      });

      it(`${mode}, ${kind}: every scalar type reaches the kernel bit for bit`, async () => {
        const args: KernelArg[] = [
          { kind: "scalar", type: "bool", value: true },
          { kind: "scalar", type: "i32", value: -2147483648 },
          { kind: "scalar", type: "u32", value: 4294967295 },
          { kind: "scalar", type: "i64", value: -(2n ** 63n) + 1n },
          { kind: "scalar", type: "u64", value: 2n ** 64n - 2n },
          { kind: "scalar", type: "f32", value: -0 },
          { kind: "scalar", type: "f64", value: Number.MIN_VALUE },
          ...(["bool", "i32", "u32", "i64", "u64", "f32", "f64"] as const).map((elem): KernelArg => ({ kind: "array", elem, length: 1, copyBack: true })),
        ];
        const r = await runner(mode, modules[kind])({ kernel: "roundtrip", grid, block, args });
        const want = [new Uint8Array([1]), new Int32Array([-2147483648]), new Uint32Array([4294967295]), new BigInt64Array([-(2n ** 63n) + 1n]),
          new BigUint64Array([2n ** 64n - 2n]), new Float32Array([-0]), new Float64Array([Number.MIN_VALUE])];
        want.forEach((w, i) => expect(bits(r.outputs.get(7 + i)!)).toBe(bits(w)));
        const nan = await runner(mode, modules[kind])({ kernel: "roundtrip", grid, block, args: args.map((a, i) => (i === 5 ? { ...a, value: NaN } : i === 6 ? { ...a, value: -Infinity } : a)) as KernelArg[] });
        expect(bits(nan.outputs.get(12)!)).toBe("0000c07f");
        expect(bits(nan.outputs.get(13)!)).toBe("000000000000f0ff");
      });
    }

    it(`${mode}: arrays of every type round-trip through the GPU, NaN payloads included`, async () => {
      const f32 = new Float32Array([NaN, -0, Infinity, -Infinity, 1e-45, 3.4028234663852886e38]);
      new Uint32Array(f32.buffer)[0] = 0x7fa00001;
      const f64 = new Float64Array([NaN, -0, Infinity, 5e-324]);
      new BigUint64Array(f64.buffer)[0] = 0xfff0000000000123n;
      const cases = {
        bool: new Uint8Array([1, 0, 1, 1]),
        i32: new Int32Array([-2147483648, 2147483647, -1, 0]),
        u32: new Uint32Array([4294967295, 0, 1]),
        i64: new BigInt64Array([-(2n ** 63n), 2n ** 63n - 1n]),
        u64: new BigUint64Array([2n ** 64n - 1n, 2n ** 53n + 1n]),
        f32,
        f64,
      };
      for (const [elem, data] of Object.entries(cases) as [keyof typeof cases, (typeof cases)[keyof typeof cases]][]) {
        const r = await runner(mode, modules.cubin)({
          kernel: `copy_${elem}`, grid, block,
          args: [{ kind: "scalar", type: "i32", value: data.length }, { kind: "array", elem, data, copyBack: false }, { kind: "array", elem, length: data.length, copyBack: true }],
        });
        expect(bits(r.outputs.get(2)!), elem).toBe(bits(data));
      }
    });

    it(`${mode}: repeat launches on the same buffers and reports min and median kernel time`, async () => {
      const o = { kernel: "add_one", grid, block, repeat: 10, args: [{ kind: "scalar", type: "i32", value: 4 }, { kind: "array", elem: "i32", data: new Int32Array([0, 1, 2, 3]), copyBack: true }] as KernelArg[] };
      const r = mode === "one-shot" ? await launchOnce({ module: modules.cubin, ...o }) : await session.run({ module: modules.cubin, ...o });
      expect(r.outputs.get(1)).toEqual(new Int32Array([10, 11, 12, 13]));
      expect(r.timing.launches).toBe(10);
      expect(r.timing.kernelMinMs).toBeGreaterThan(0);
      expect(r.timing.kernelMinMs).toBeLessThanOrEqual(r.timing.kernelMedianMs);
    });

    it(`${mode}: 2^24-element saxpy (64 MiB arrays) is exact`, async () => {
      await expectSaxpyWorks(runner(mode, modules.cubin), 1 << 24);
    });

    it(`${mode}: 2^24-element saxpy is exact with the shared file page-locked, not page-locked, and through the pipes`, async () => {
      await expectSaxpyWorks(runnerWith(mode, modules.cubin, { env: { GK_LAUNCHER_PIN: "1" } }), 1 << 24);
      await expectSaxpyWorks(runnerWith(mode, modules.cubin, { env: { GK_LAUNCHER_PIN: "0" } }), 1 << 24);
      await expectSaxpyWorks(runnerWith(mode, modules.cubin, { sharedFileMinBytes: Infinity }), 1 << 22);
    });

    it(`${mode}: arrays of every type round-trip exactly through shared files (2^20 elements) and through the pipes`, async () => {
      for (const opts of [{}, { env: { GK_LAUNCHER_PIN: "1" } }, { sharedFileMinBytes: Infinity }] as SessionOptions[]) {
        const run = runnerWith(mode, modules.cubin, opts);
        for (const elem of ["bool", "i32", "u32", "i64", "u64", "f32", "f64"] as const) {
          const n = (1 << 20) + 3;
          const data = sampleArray(elem, n);
          const r = await run({
            kernel: `copy_${elem}`, grid: [Math.ceil(n / 256), 1, 1], block: [256, 1, 1],
            args: [{ kind: "scalar", type: "i32", value: n }, { kind: "array", elem, data, copyBack: false }, { kind: "array", elem, length: n, copyBack: true }],
          });
          expect(hexOf(r.outputs.get(2)!), `${elem} ${JSON.stringify(opts)}`).toBe(hexOf(data));
        }
      }
    });

    it(`${mode}: copyBackInPlace writes a 2^24-element result into the caller's array`, async () => {
      const s = saxpy(1 << 24);
      const out = new Float32Array(1 << 24);
      const args = [...s.args.slice(0, 4), { kind: "array", elem: "f32", data: out, copyBack: true }] as KernelArg[];
      const o = { kernel: "saxpy", grid: s.grid, block: s.block, args, copyBackInPlace: true };
      const r = mode === "one-shot" ? await launchOnce({ module: modules.cubin, ...o }) : await session.run({ module: modules.cubin, ...o });
      expect(r.outputs.get(4)).toBe(out);
      expect(bits(out)).toBe(bits(s.want));
    });

    it(`${mode}: a write far out of bounds is CUDA_ERROR_ILLEGAL_ADDRESS, and the next launch works`, async () => {
      const e = await failure(runner(mode, modules.cubin)({ kernel: "oob", grid, block, args: [{ kind: "array", elem: "f32", length: 32, copyBack: true }] }));
      expect(e).toMatchObject({ code: "GK8006", cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", phase: "kernel", contextLost: true });
      expect(e.message).toContain("CUDA_ERROR_ILLEGAL_ADDRESS");
      await expectSaxpyWorks(runner(mode, modules.cubin));
    });

    it(`${mode}: block 2048 is an invalid launch configuration (GK8010), and the next launch works`, async () => {
      const s = saxpy(8);
      const e = await failure(runner(mode, modules.cubin)({ kernel: "saxpy", grid, block: [2048, 1, 1], args: s.args }));
      expect(e).toMatchObject({ code: "GK8010", phase: "request" });
      await expectSaxpyWorks(runner(mode, modules.cubin));
    });

    it(`${mode}: more threads than __launch_bounds__ fails in cuLaunchKernel without losing the context`, async () => {
      const e = await failure(runner(mode, modules.cubin)({ kernel: "bounded", grid, block: [256, 1, 1], args: [{ kind: "array", elem: "f32", length: 256, copyBack: false }] }));
      expect(e.code).toBe("GK8006");
      expect(["CUDA_ERROR_INVALID_VALUE", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"]).toContain(e.cudaError);
      expect(e).toMatchObject({ phase: "launch", call: "cuLaunchKernel", contextLost: false });
      expect(e.launcher?.hint).toContain("at most 128 threads per block");
      await expectSaxpyWorks(runner(mode, modules.cubin));
    });

    it(`${mode}: dynamic shared memory above 48 KB works (opt-in), beyond the device is GK8010`, async () => {
      const run = runner(mode, modules.cubin);
      const args: KernelArg[] = [{ kind: "scalar", type: "i32", value: 25_000 }, { kind: "array", elem: "f32", length: 1, copyBack: true }];
      const r = await run({ kernel: "use_shared", grid, block: [256, 1, 1], args, sharedBytes: 100_000 });
      expect(r.outputs.get(1)).toEqual(new Float32Array([24_999]));
      const e = await failure(run({ kernel: "use_shared", grid, block: [256, 1, 1], args, sharedBytes: 1 << 20 }));
      expect(e).toMatchObject({ code: "GK8010", phase: "launch" });
    });

    it(`${mode}: a kernel past timeoutMs is GK8012, and the next launch works`, async () => {
      const started = Date.now();
      const e = await failure(runner(mode, modules.cubin)({
        kernel: "spin", grid, block, timeoutMs: 300,
        args: [{ kind: "scalar", type: "i64", value: 20_000_000_000n }, { kind: "array", elem: "i32", length: 1, copyBack: true }],
      }));
      expect(e).toMatchObject({ code: "GK8012", phase: "kernel", contextLost: true });
      expect(Date.now() - started).toBeLessThan(30_000);
      await expectSaxpyWorks(runner(mode, modules.cubin));
    });

    it(`${mode}: an unknown kernel is GK8009 and a broken module is a module_load error`, async () => {
      const run = runner(mode, modules.cubin);
      expect(await failure(run({ kernel: "no_such_kernel", grid, block, args: [] }))).toMatchObject({ code: "GK8009", cudaError: "CUDA_ERROR_NOT_FOUND", phase: "module_load" });
      const bad = join(tempDir("gpu-bad"), "bad.ptx");
      writeFileSync(bad, ".version 9.0\n.target sm_90\n.address_size 64\nthis is not ptx\n");
      const e = await failure(runner(mode, bad)({ kernel: "k", grid, block, args: [] }));
      expect(e.code).toBe("GK8006");
      expect(["CUDA_ERROR_INVALID_PTX", "CUDA_ERROR_INVALID_IMAGE", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"]).toContain(e.cudaError);
      expect(e.phase).toBe("module_load");
      await expectSaxpyWorks(run);
    });
  }

  it.skipIf((gpu.device?.driverVersion ?? 0) < 12040)("checks the argument count and sizes against the kernel (cuFuncGetParamInfo, driver 12.4+)", async () => {
    const s = saxpy(8);
    const e = await failure(launchOnce({ module: modules.cubin, kernel: "saxpy", grid, block, args: s.args.slice(0, 4) }));
    expect(e.code).toBe("GK8005");
    expect(e.launcher).toMatchObject({ code: "BAD_ARGS", phase: "launch" });
    expect(e.message).toContain("takes 5 parameters (4, 4, 8, 8, 8 bytes)");
  });

  it("--serve page-locks its shared file (reported, not required) and moves 256 MiB through it exactly", async () => {
    const file = SharedFile.create()!;
    const bytes = 256 << 20;
    const data = new Uint8Array(bytes);
    for (let i = 0; i < bytes; i += 4093) data[i] = i & 255;
    expect(file.fit(bytes)).toBe(true);
    expect(file.write(0, data)).toBe(true);
    const child = spawn(LAUNCHER, ["--serve"], { stdio: ["pipe", "pipe", "inherit", file.fd] });
    const reader = new FrameReader();
    child.stdout!.on("data", (c: Buffer) => reader.push(c));
    const ask = (h: object): Promise<Frame> => {
      for (const b of encodeFrame(h)) child.stdin!.write(b);
      return reader.next();
    };
    const t0 = performance.now();
    const a = (await ask({ op: "alloc", bytes, file: { fd: 3 } })).header;
    const t1 = performance.now();
    expect(a).toMatchObject({ ok: true, bytes });
    const again = (await ask({ op: "upload", buffer: a.buffer, file: { fd: 3 }, bytes })).header;
    const tUp = performance.now() - t1;
    file.write(0, new Uint8Array(bytes)); // the download must overwrite this
    const t2 = performance.now();
    const d = (await ask({ op: "download", buffer: a.buffer, file: { fd: 3 } })).header;
    const t3 = performance.now();
    const back = new Uint8Array(bytes);
    file.readInto(0, back);
    expect(Buffer.compare(back, data)).toBe(0);
    const msg = `--serve shared file: pinned ${String(d.pinned)}; alloc+first upload ${(t1 - t0).toFixed(1)} ms (incl. pinning), upload ${tUp.toFixed(1)} ms, download ${(t3 - t2).toFixed(1)} ms for 256 MiB`;
    if (a.pinned === true && again.pinned === true && d.pinned === true) console.info(msg);
    else console.warn(`${msg}: cuMemHostRegister refused the mapping, copies ran from pageable memory`);
    child.stdin!.end();
    await new Promise((r) => child.on("close", r));
    file.close();
  });

  it("session: after a lost context the old buffers are invalid and a new server takes over", async () => {
    const before = session.generation;
    const m = await session.loadModule(modules.cubin);
    const b = await session.alloc("f32", 32);
    const e = await failure(session.launch({ module: m, kernel: "oob", grid, block, args: [{ kind: "buffer", buffer: b }] }));
    expect(e).toMatchObject({ cudaError: "CUDA_ERROR_ILLEGAL_ADDRESS", contextLost: true });
    expect(await failure(session.read(b))).toMatchObject({ code: "GK8005", contextLost: true });
    await expectSaxpyWorks(runner("session", modules.cubin));
    expect(session.generation).toBe(before + 1);
  });
});
