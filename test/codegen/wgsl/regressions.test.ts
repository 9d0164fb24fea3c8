/**
 * Regressions of the WGSL backend found by the random WebGPU differential
 * (test/differential/webgpu-random.test.ts): one small program per bug in
 * test/codegen/wgsl/regressions/, whose header comment names the bug. Each launch must give
 * on WebGPU, bit for bit, the simulator's outputs (the programs keep to what WebGPU computes
 * exactly: spec/wgsl.md, Numerics). validate.test.ts checks their shaders on Dawn's null
 * backend (a second Dawn instance in one process aborts here). Skipped, with a one-line
 * reason, where there is no WebGPU adapter.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { formatDiagnostics } from "../../../src/diagnostics/format.js";
import type { AnyTypedArray } from "../../../src/ir/values.js";
import { frontEnd } from "../../../src/pipeline.js";
import { openDevice } from "../../../src/runtime/device/device.js";
import { runLaunch } from "../../../src/runtime/launches.js";
import { createRunner, type Runner } from "../../../src/runtime/runner.js";
import { webgpuAvailable } from "../../runtime/webgpu/adapter.js";

const DIR = "test/codegen/wgsl/regressions";
const files = readdirSync(DIR).filter((f) => f.endsWith(".gk")).sort().map((f) => path.join(DIR, f));

function checked(file: string) {
  const r = frontEnd(file, { target: WGSL_TARGET });
  if (!r.ir) throw new Error(formatDiagnostics(r.diagnostics, r.sources));
  return r;
}

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/codegen/wgsl/regressions.test.ts skipped: ${webgpu.reason}`);

const runners: Runner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

const hex = (a: AnyTypedArray) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

describe.skipIf(!webgpu.ok)(`WGSL regressions on WebGPU equal the simulator (${webgpu.reason})`, () => {
  for (const file of files) {
    it(file, async () => {
      const fe = checked(file);
      const ir = fe.ir!;
      const cpu = createRunner(ir, fe.sources, await openDevice({ device: "cpu" }));
      const gpu = createRunner(ir, fe.sources, await openDevice({ device: "webgpu" }));
      runners.push(gpu);
      for (const l of ir.launches) {
        const want = await runLaunch(ir, l, cpu);
        const got = await runLaunch(ir, l, gpu);
        expect(got.device).toBe("webgpu");
        for (const [name, w] of want.outputs) expect(hex(got.outputs.get(name)!.data), `launch of ${l.kernel}, output ${name}`).toBe(hex(w.data));
      }
    });
  }
});
