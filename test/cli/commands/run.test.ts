/**
 * `gkc run --device cuda` on the fake libcuda.so.1 (test/runtime/launcher-fake-driver/): the
 * command opens its GPU as openDevice() does, so it runs in-process where the addon is built
 * and in a gpu_launcher process under GK_ISOLATION=process, and prints what the simulator
 * prints. The fake driver runs the kernels of fake-gpu-helpers.ts's source by name; the file
 * skips, saying so, where nvcc is missing (the module is built from the .gk source).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../../src/cli/io.js";
import { main } from "../../../src/cli/main.js";
import { FAKE_SRC, fakeSkip as skip, setUpFakeGpu } from "../../runtime/device/fake-gpu-helpers.js";
import { removeTempDirs, tempDir } from "../../runtime/launcher/helpers.js";

if (skip) console.warn(`test/cli/commands/run.test.ts skipped: ${skip}`);

// Launches of the fake driver's kernels: plain arrays, a constant array's contents, and a dynamic
// shared array's length, which the fake shared_length writes to out[0] (the simulator writes 1.0).
const LAUNCHES = `
launch saxpy(n = 8, alpha = 2.5, x = [1, 2, 3, 4, 5, 6, 7, 8], y = fill(8, 1), out = zeros(8)) grid(1) block(256);
launch add_one(n = 3, p = [1, 2, 3]) grid(1) block(32);
launch read_constant(out = zeros(4), table = [1, 2, 3, 4]) grid(1) block(4);
launch shared_length(out = zeros(1)) grid(1) block(32) shared(buf = 300);
`;

let file: string;
let cacheRoot: string;
beforeAll(async () => {
  if (skip) return;
  cacheRoot = await setUpFakeGpu("cli-run");
  file = join(tempDir("cli-run-src"), "fake.gk");
  writeFileSync(file, FAKE_SRC + LAUNCHES);
});
afterEach(() => {
  delete process.env.GK_ISOLATION;
});
afterAll(removeTempDirs);

async function gkc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = {
    out: (t) => (out += t.endsWith("\n") ? t : t + "\n"),
    err: (t) => (err += t.endsWith("\n") ? t : t + "\n"),
    color: false,
    cwd: process.cwd(),
    env: { ...process.env, GK_CACHE_DIR: cacheRoot },
  };
  const code = await main(argv, io);
  return { code, out, err };
}

describe.skipIf(skip !== undefined)("gkc run --device cuda on the fake driver", () => {
  it("runs in-process where the addon is built, printing what the simulator prints", async () => {
    const cpu = await gkc("run", file, "--device", "cpu");
    expect(cpu.code).toBe(0);
    expect(cpu.out).toContain("out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]");
    expect(cpu.out).toMatch(/# shared_length \(.*\)\nout = \[1\]\n$/);
    const gpu = await gkc("run", file, "--device", "cuda");
    expect(gpu.err).toBe("gkc: running on GPU 0: Fake GPU (gk test driver) (sm_90, in-process)\n");
    expect(gpu).toMatchObject({ code: 0, out: cpu.out.replace(/out = \[1\]\n$/, "out = [300]\n") });
  });

  it("runs in a gpu_launcher process under GK_ISOLATION=process, with the same output and JSON", async () => {
    process.env.GK_ISOLATION = "process";
    const gpu = await gkc("run", file, "--device", "cuda", "--json");
    expect(gpu.err).toBe("gkc: running on GPU 0: Fake GPU (gk test driver) (sm_90, process)\n");
    delete process.env.GK_ISOLATION;
    const cpu = await gkc("run", file, "--device", "cpu", "--json");
    const outputs = (text: string) => (JSON.parse(text) as { launches: { kernel: string; outputs: unknown }[] }).launches.map((l) => [l.kernel, l.outputs]);
    expect(gpu.code).toBe(0);
    expect(outputs(gpu.out)).toEqual([...outputs(cpu.out).slice(0, 3), ["shared_length", { out: [300] }]]);
    expect((JSON.parse(gpu.out) as { launches: { device: string }[] }).launches.map((l) => l.device)).toEqual(["cuda", "cuda", "cuda", "cuda"]);
  });

  it("says what is wrong with GK_ISOLATION", async () => {
    process.env.GK_ISOLATION = "sideways";
    const r = await gkc("run", file, "--device", "cuda");
    expect(r.code).toBe(1);
    expect(r.err).toContain('GK_ISOLATION must be "in-process" or "process", got "sideways"');
  });
});
