/**
 * What Dawn's robustness makes of the generated WGSL: the SPIR-V Dawn hands the Vulkan driver
 * (its dump_shaders feature, printed by a child process running Dawn's Node binding on
 * SwiftShader; the same compiler, Tint, runs for every Vulkan GPU). Tint clamps an array
 * index unless it sees the index's range; it sees the range of a `for` loop's counter counted
 * between constants and of the thread's index, but not of a `loop { if !(c) { break; } … }`
 * counter nor of a function's parameter. So examples/sgemm.gk's tile loads in its inner loop,
 * `load4(As[stage][k], ty * 4)`, must clamp only `stage` (to 1): no index of the tiles' inner
 * dimensions (8 and 128) is clamped. Skipped, with a one-line reason, without a WebGPU adapter.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitWgsl } from "../../../src/codegen/wgsl/index.js";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { frontEnd } from "../../../src/pipeline.js";
import { webgpuAvailable } from "../../runtime/webgpu/adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/codegen/wgsl/robustness.test.ts skipped: ${webgpu.reason}`);

/** Compiles the WGSL on stdin (entry point argv[1], block size argv[2]) with dump_shaders on; Dawn prints the SPIR-V. */
const DUMP = `
import { create, globals } from "webgpu";
Object.assign(globalThis, globals);
let code = "";
for await (const chunk of process.stdin) code += chunk;
// The instance kept in a variable: one the garbage collector takes aborts Dawn (src/runtime/webgpu/open.ts).
const gpu = create(["enable-dawn-features=dump_shaders"]);
const adapter = await gpu.requestAdapter();
const device = await adapter.requestDevice();
const module = device.createShaderModule({ code });
await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: process.argv[1], constants: { gk_block_x: Number(process.argv[2]) } } });
device.destroy();
`;

/** The SPIR-V Dawn makes of an example's kernel for a block of `block` threads. */
function spirv(example: string, kernel: string, block: number): string {
  const r = frontEnd(path.join("examples", example), { target: WGSL_TARGET });
  if (!r.ir) throw new Error(`${example} does not check for WGSL`);
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", DUMP, kernel, String(block)], { input: emitWgsl(r.ir).source, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] });
  const at = out.indexOf("Dumped SPIRV");
  expect(at, "Dawn printed no SPIR-V (dump_shaders)").toBeGreaterThanOrEqual(0);
  return out.slice(at);
}

describe.skipIf(!webgpu.ok)(`Dawn's robustness on the generated WGSL (${webgpu.reason})`, () => {
  it("examples/sgemm.gk: no index of the shared tiles' inner dimensions is clamped", () => {
    const code = spirv("sgemm.gk", "sgemm", 256);
    const clamps = code.split("\n").filter((l) => / UMin /.test(l));
    // `stage` (to 1) and the global arrays' indices (to their lengths) are clamped; k (to 7) and the columns (to 127) are not.
    expect(clamps.filter((l) => /%uint_(7|127)$/.test(l.trim()))).toEqual([]);
    expect(clamps.some((l) => /%uint_1$/.test(l.trim()))).toBe(true);
  });
});
