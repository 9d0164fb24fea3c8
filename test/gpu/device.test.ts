/**
 * GPU arrays, queues and asynchronous launches on a real GPU, in both isolations (the
 * in-process addon, and a gpu_launcher process): exact round trips of every element type,
 * queued launches in order, reads that wait for their writers, independent queues, kernel
 * times, out of memory, use after free, a faulting kernel (named, its arrays lost, the next
 * launch working) and a kernel that never ends. Skipped, with a one-line reason each, where
 * there is no GPU, no nvcc or (for in-process) no addon. test/runtime/device/ runs the same
 * API on the simulator and on the fake driver.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDevice, packStructs, unpackStructs, type GpuDevice, type Isolation, type LoadedModule } from "../../src/index.js";
import { ensureAddon, failure, hexOf, ROOT, sampleArray } from "../runtime/launcher/helpers.js";
import { findNvcc, gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
const nvcc = gpu.ok ? await findNvcc() : undefined;
const base = !gpu.ok ? gpu.reason : nvcc === undefined ? "nvcc not found" : undefined;
let addonWhy: string | undefined;
if (!base) {
  try {
    await ensureAddon();
  } catch (e) {
    addonWhy = e instanceof Error ? e.message : String(e);
  }
}
const skipOf = (i: Isolation) => base ?? (i === "in-process" ? addonWhy : undefined);
for (const i of ["in-process", "process"] as const) if (skipOf(i)) console.warn(`test/gpu/device.test.ts (${i}) skipped: ${skipOf(i)}`);

const ELEMS = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"] as const;
const SRC = `
${ELEMS.map((t) => `device_kernel copy_${t}(n: i32, src: readonly global<${t}>, dst: global<${t}>) { const i = globalId.x; if (i < n) { dst[i] = src[i]; } }`).join("\n")}
device_kernel add_one(n: i32, p: global<i32>) { const i = globalId.x; if (i < n) { p[i] = p[i] + 1; } }
device_kernel busy(cycles: i64, p: global<i32>) {
  let acc: i32 = 1;
  for (let i: i64 = 0; i < cycles; i += 1) { acc = acc * 1664525 + 1013904223; }
  if (globalId.x == 0) { p[0] = p[0] + 1; p[1] = acc; }
}
device_kernel oob(p: global<i32>) { p[i64(globalId.x) + 68719476736] = 1; }
device_kernel saxpy(n: i32, alpha: f32, x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {
  const i = globalId.x;
  if (i < n) { out[i] = alpha * x[i] + y[i]; }
}
`;


for (const isolation of ["in-process", "process"] as const) {
  const skip = skipOf(isolation);
  describe.skipIf(skip !== undefined)(skip ? `GPU devices, ${isolation} (skipped: ${skip})` : `GPU devices, ${isolation}, on ${gpu.reason}`, () => {
    let dev: GpuDevice;
    let mod: LoadedModule;
    beforeAll(async () => {
      dev = await openDevice({ device: "cuda", isolation });
      mod = await dev.compileSource(SRC);
    });
    afterAll(async () => {
      await dev?.close();
    });

    it("opens the GPU in the isolation asked for", () => {
      expect(dev).toMatchObject({ kind: "cuda", isolation });
      expect(dev.info?.arch).toBe(gpu.device!.arch);
    });

    it("keeps arrays of vectors (lanes) and structs (bytes) on the GPU, fills and copies arrays, as the simulator does", async () => {
      const src =
        "struct P { pos: f32x3; n: i32; }\n" +
        "device_kernel k(vs: global<f32x3>, ps: global<P>) {\n  const i = globalId.x;\n  vs[i] = vs[i] * 2.0;\n  ps[i].pos = vs[i];\n  ps[i].n += 1;\n}\n";
      const results = [];
      for (const d of [dev, await openDevice({ device: "cpu" })]) {
        const m = await d.compileSource(src);
        const P = m.structs.P!;
        const vs = await d.array(Float32Array.from([1, 2, 3, 0, 4, 5, 6, 0]));
        const ps = await d.array(new Uint8Array(packStructs(P, [{ pos: [0, 0, 0], n: 1 }, { pos: [0, 0, 0], n: 2 }])), { elem: "u8" });
        await m.k!({ grid: 1, block: 2 }, { vs, ps });
        const filled = await d.zeros("i32", 5);
        await filled.fill(9, 1);
        const copy = await d.zeros("i32", 7);
        await copy.copyFrom(filled, { offset: 2 });
        results.push({ vs: [...(await vs.read())], ps: unpackStructs(P, await ps.read()), copy: [...(await copy.read())] });
      }
      expect(results[0]).toEqual({ vs: [2, 4, 6, 0, 8, 10, 12, 0], ps: [{ pos: [2, 4, 6], n: 2 }, { pos: [8, 10, 12], n: 3 }], copy: [0, 0, 0, 9, 9, 9, 9] });
      expect(results[0]).toEqual(results[1]);
    });

    it("round-trips every element type bit for bit, through GPU arrays and kernels", async () => {
      for (const elem of ELEMS) {
        const data = sampleArray(elem, 1000);
        const src = await dev.array(data as never, { label: `src ${elem}` });
        const dst = await dev.zeros(elem, 1000);
        await mod[`copy_${elem}`]!({ grid: 4, block: 256 }, { n: 1000, src, dst });
        expect(hexOf(await dst.read()), elem).toBe(hexOf(data));
        src.free();
        dst.free();
      }
    });

    it("moves 256 MB each way exactly, from ordinary and from page-locked host memory", async () => {
      const n = 64 << 20;
      const data = new Int32Array(n);
      for (let i = 0; i < n; i += 4099) data[i] = i;
      const a = await dev.array(data);
      const back = await a.read();
      expect(back[n - 1]).toBe(data[n - 1]);
      expect(hexOf(back.subarray(0, 1 << 16))).toBe(hexOf(data.subarray(0, 1 << 16)));
      expect(Buffer.compare(Buffer.from(back.buffer), Buffer.from(data.buffer))).toBe(0);
      const pinned = dev.hostArray("i32", n);
      pinned.set(data);
      await a.write(pinned);
      pinned.fill(0);
      await a.read(pinned);
      expect(Buffer.compare(Buffer.from(pinned.buffer, pinned.byteOffset, pinned.byteLength), Buffer.from(data.buffer))).toBe(0);
      a.free();
    }, 120_000);

    it("runs queued launches in order, and a read waits for the launch that writes the array", async () => {
      const p = await dev.zeros("i32", 1024);
      for (let i = 0; i < 200; i++) await mod.add_one({ grid: 4, block: 256 }, { n: 1024, p });
      expect([...(await p.read())].every((v) => v === 200)).toBe(true);
      const q = await dev.zeros("i32", 2);
      await mod.busy({ grid: 1, block: 1 }, { cycles: 20_000_000n, p: q }); // tens of milliseconds
      expect((await q.read())[0]).toBe(1);
    });

    it("keeps independent queues (CUDA streams), each synced on its own", async () => {
      const q1 = await dev.queue();
      const q2 = await dev.queue();
      const a = await dev.zeros("i32", 256);
      const b = await dev.zeros("i32", 256);
      for (let i = 0; i < 50; i++) {
        await mod.add_one({ grid: 1, block: 256, queue: q1 }, { n: 256, p: a });
        await mod.add_one({ grid: 1, block: 256, queue: q2 }, { n: 256, p: b });
      }
      await q1.sync();
      await q2.sync();
      expect(new Set(await a.read())).toEqual(new Set([50]));
      expect(new Set(await b.read())).toEqual(new Set([50]));
    });

    it("gives kernel times from CUDA events, a long kernel's longer than a short one's", async () => {
      const p = await dev.zeros("i32", 2);
      const times: number[] = [];
      await mod.busy({ grid: 1, block: 1, kernelTime: (ms) => times.push(ms) }, { cycles: 1000n, p });
      await mod.busy({ grid: 1, block: 1, kernelTime: (ms) => times.push(ms) }, { cycles: 10_000_000n, p });
      await mod.sync();
      expect(times).toHaveLength(2);
      expect(times[0]!).toBeGreaterThan(0);
      expect(times[1]!).toBeGreaterThan(times[0]!);
      let hostMs = -1;
      await mod.saxpy({ grid: 1, block: 32, kernelTime: (ms) => (hostMs = ms) }, { n: 4, alpha: 1, x: new Float32Array(4), y: new Float32Array(4), out: new Float32Array(4) });
      expect(hostMs).toBeGreaterThan(0);
    });

    it("reports out of memory with the size asked and the memory free, and goes on", async () => {
      const total = dev.info!.totalMemBytes;
      const e = await failure(dev.zeros("f32", Math.ceil((total * 1.5) / 4), { label: "huge" }));
      expect(e.code).toBe("GK8018");
      expect(e.message).toMatch(/^GK8018: GPU array 'huge' \(f32\[\d+\]\): out of GPU memory: [\d.]+ GiB asked, [\d.]+ [KMG]iB free of [\d.]+ GiB/);
      const ok = await dev.array(new Int32Array([1, 2]));
      expect(await ok.read()).toEqual(new Int32Array([1, 2]));
    });

    it("refuses an array used after free() (GK8016), naming it", async () => {
      const p = await dev.zeros("i32", 4, { label: "freed" });
      p.free();
      expect((await failure(mod.add_one({ grid: 1, block: 4 }, { n: 4, p }))).code).toBe("GK8016");
      expect((await failure(p.read())).message).toContain("GPU array 'freed' (i32[4]) was used after free()");
    });

    // In-process, CUDA cannot use the GPU again in a process after such a fault (driver 580 / CUDA 13: the context cannot
    // even be retained again), so the device goes on in a gpu_launcher process: the last test of this block, on purpose.
    it("names the faulting kernel and launch, loses the arrays made before (GK8017), and the next launch works", async () => {
      const before = await dev.array(new Int32Array([7, 7]), { label: "before" });
      await mod.add_one({ grid: 1, block: 2 }, { n: 2, p: before });
      await mod.oob({ grid: 1, block: 32 }, { p: before });
      await mod.add_one({ grid: 1, block: 2 }, { n: 2, p: before });
      const e = await failure(mod.sync());
      expect(e.cudaError).toMatch(/^CUDA_ERROR_(ILLEGAL_ADDRESS|LAUNCH_FAILED)$/);
      expect(e.contextLost).toBe(true);
      expect(e.launch?.kernel).toBe("oob");
      expect(e.message).toContain("of kernel 'oob' on queue 0");
      expect(dev.isolation).toBe("process");
      if (isolation === "in-process") expect(e.diagnostic.notes.map((n) => n.message).join("\n")).toContain("the device goes on in a gpu_launcher process");
      const lost = await failure(before.read());
      expect(lost.code).toBe("GK8017");
      expect(lost.message).toContain("GPU array 'before' (i32[2]) can no longer be used");
      const after = await dev.array(new Int32Array([1, 2]));
      await mod.add_one({ grid: 1, block: 2 }, { n: 2, p: after });
      expect(await after.read()).toEqual(new Int32Array([2, 3]));
    });
  });
}

describe.skipIf(skipOf("process") !== undefined)("a kernel that never ends, process isolation", () => {
  it("a wait's timeout ends the launcher (GK8012), and the next launch works", async () => {
    const dev = await openDevice({ device: "cuda", isolation: "process" });
    try {
      const mod = await dev.compileSource(SRC);
      const p = await dev.zeros("i32", 2);
      await mod.busy({ grid: 1, block: 1 }, { cycles: 10n ** 15n, p });
      const e = await failure(dev.sync({ timeoutMs: 1000 }));
      expect(e.code).toBe("GK8012");
      expect(e.launch?.kernel).toBe("busy");
      const q = await dev.array(new Int32Array([1, 1]));
      await mod.add_one({ grid: 1, block: 2 }, { n: 2, p: q });
      expect(await q.read()).toEqual(new Int32Array([2, 2]));
    } finally {
      await dev.close();
    }
  });
});

describe.skipIf(skipOf("in-process") !== undefined)("a kernel that never ends, in-process", () => {
  it("a wait's timeout gives up on the kernel and says so; ending the process stops it", () => {
    // In a process of its own, which ends itself with SIGKILL: that stops the kernel.
    const r = spawnSync(process.execPath, [join(ROOT, "test", "runtime", "fixtures", "spin-in-process.mjs"), "--kill"], { encoding: "utf8", timeout: 120_000, killSignal: "SIGKILL" });
    const lines = r.stdout.trim().split("\n");
    expect(lines[0], r.stderr).toMatch(/^timeout GK8012 .*a timeout stops the wait but not the kernel/);
    expect(lines[1]).toMatch(/^after .*cannot be used again in this process/);
  });
});
