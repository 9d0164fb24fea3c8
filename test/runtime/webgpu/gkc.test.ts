// `gkc run --device webgpu`: the launch statements on a WebGPU device, printed as on the
// simulator (and as JSON with the device named); a program WGSL cannot express is refused,
// located (GK7008). Skipped, with a one-line reason, where there is no WebGPU adapter.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Io } from "../../../src/cli/io.js";
import { main } from "../../../src/cli/main.js";
import { webgpuAvailable } from "./adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/runtime/webgpu/gkc.test.ts skipped: ${webgpu.reason}`);

const dir = mkdtempSync(join(tmpdir(), "gk-webgpu-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function gkc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), color: false, cwd: process.cwd(), env: { ...process.env, GK_CACHE_DIR: join(dir, "cache") } };
  return { code: await main(argv, io), out, err };
}

describe.skipIf(!webgpu.ok)(`gkc run --device webgpu (${webgpu.reason})`, () => {
  it("prints what the simulator prints, and names the device", async () => {
    const onWebGpu = await gkc("run", "examples/saxpy.gk", "--device", "webgpu");
    const onCpu = await gkc("run", "examples/saxpy.gk", "--device", "cpu");
    expect(onWebGpu.code).toBe(0);
    expect(onWebGpu.out).toBe("out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]\n");
    expect(onWebGpu.out).toBe(onCpu.out);
    expect(onWebGpu.err).toMatch(/^gkc: running on WebGPU \(.+\)\n$/);
    const json = JSON.parse((await gkc("run", "examples/saxpy.gk", "--device", "webgpu", "--json")).out) as { launches: { device: string; outputs: { out: number[] } }[] };
    expect(json.launches[0]!.device).toBe("webgpu");
    expect(json.launches[0]!.outputs.out).toEqual([3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]);
  });

  it("refuses what WGSL cannot express, located, and --check-races on WebGPU", async () => {
    const f = join(dir, "wide.gk");
    writeFileSync(f, "device_kernel k(out: global<f64>) {\n  out[0] = 1.0;\n}\nlaunch k(out = zeros(1)) grid(1) block(1);\n");
    const r = await gkc("run", f, "--device", "webgpu");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/wide\.gk:1:17 - error GK7008: the WGSL target has no f64, which this program uses here/);
    expect((await gkc("run", f, "--device", "webgpu", "--check-races")).err).toContain("--check-races runs on the simulator");
  });
});
