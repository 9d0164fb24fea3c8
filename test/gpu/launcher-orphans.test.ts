// On a real GPU: a launcher whose Node client is killed with SIGKILL while a kernel spins ends
// by itself (ending the process is what stops the kernel), frees the GPU, and the next client
// runs. The client is test/runtime/fixtures/launcher-client.mjs, with launcher-kernels.cu's
// spin kernel asked for 10^12 clock cycles (minutes). Skipped, with a one-line reason, where
// there is no GPU.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LauncherSession } from "../../src/runtime/launcher.js";
import { childrenOf, isRunning, waitEnded } from "../runtime/fixtures/processes.js";
import { LAUNCHER, removeTempDirs, ROOT, tempDir } from "../runtime/launcher/helpers.js";
import { findNvcc, gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
const nvcc = gpu.ok ? await findNvcc() : undefined;
const skip = !gpu.ok ? gpu.reason : nvcc === undefined ? "nvcc not found (set $NVCC)" : undefined;
if (skip) console.warn(`test/gpu/launcher-orphans.test.ts skipped: ${skip}`);

const client = fileURLToPath(new URL("../runtime/fixtures/launcher-client.mjs", import.meta.url));
/** The launcher notices within 0.1 s; the driver then tears the context down, running kernel included. */
const END_MS = 15_000;
let cubin: string;
const started: number[] = [];

describe.skipIf(skip !== undefined)(skip ? `orphaned launchers on a GPU (skipped: ${skip})` : `orphaned launchers on ${gpu.reason}`, () => {
  beforeAll(async () => {
    cubin = join(tempDir("gpu-orphans"), "kernels.cubin");
    await execa(nvcc!, [`-arch=${gpu.device!.arch}`, "-cubin", "-o", cubin, join(ROOT, "test", "gpu", "launcher-kernels.cu")]);
  });
  afterAll(() => {
    for (const pid of started.filter(isRunning)) process.kill(pid, "SIGKILL");
    removeTempDirs();
  });

  for (const mode of ["serve", "oneshot"] as const) {
    it(`${mode}: killing the client with SIGKILL while a kernel spins ends the launcher and frees the GPU`, async () => {
      const c = execa(process.execPath, [client, mode, cubin], { env: { GK_LAUNCHER: LAUNCHER }, reject: false, buffer: false });
      let out = "";
      c.stdout!.on("data", (b: Buffer) => (out += b.toString()));
      const deadline = Date.now() + 60_000;
      while (!out.includes("ready")) {
        expect(Date.now(), "the client gets ready within 60 s").toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 20));
      }
      const launchers = childrenOf(c.pid!).filter((p) => p.comm === "gpu_launcher").map((p) => p.pid);
      expect(launchers).toHaveLength(1);
      started.push(...launchers);
      c.kill("SIGKILL");
      await c;
      const t0 = Date.now();
      expect(await waitEnded(launchers, END_MS), "the launcher still runs").toEqual([]);
      console.log(`${mode}: the launcher ended ${Date.now() - t0} ms after its client was killed`);
      // The driver releases the dead process's context (stopping its kernel) on its own time: poll nvidia-smi.
      const listed = async () => {
        const smi = await execa("nvidia-smi", ["--query-compute-apps=pid", "--format=csv,noheader"], { reject: false });
        return smi.exitCode === 0 && smi.stdout.split("\n").map((l) => Number(l.trim())).includes(launchers[0]!);
      };
      const released = Date.now() + END_MS;
      while ((await listed()) && Date.now() < released) await new Promise((r) => setTimeout(r, 100));
      expect(await listed(), `nvidia-smi still lists the launcher ${END_MS} ms after it ended`).toBe(false);
      console.log(`${mode}: the GPU released its context ${Date.now() - t0} ms after the client was killed`);

      // The GPU is free for the next client: a short kernel runs and returns at once.
      const session = new LauncherSession();
      try {
        const m = await session.loadModule(cubin);
        const done = await session.alloc("i32", 1);
        const t = await session.launch({ module: m, kernel: "spin", grid: [1, 1, 1], block: [1, 1, 1], args: [{ kind: "scalar", type: "i64", value: 1000n }, { kind: "buffer", buffer: done }], timeoutMs: 10_000 });
        expect(t.launches).toBe(1);
        expect(await session.read(done)).toEqual(new Int32Array([1]));
      } finally {
        await session.close();
      }
    });
  }
});
