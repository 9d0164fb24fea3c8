/**
 * Every shader the WGSL backend makes is valid WGSL to Dawn (the `webgpu` package, Dawn's
 * Node binding): for each example, spec/ok program and regression program (regressions/,
 * which regressions.test.ts runs) that WGSL can express, the shader
 * module compiles with no error message, and a compute pipeline is made for each of its
 * launches (the block size and dynamic shared lengths as override constants, layout.ts),
 * on Dawn's null backend: Dawn's own WGSL front end (Tint: types, uniformity, limits) without
 * a Vulkan driver, so the test does not depend on one. Running kernels is the WebGPU
 * runtime's tests' part (test/runtime/webgpu).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { emitWgsl } from "../../../src/codegen/wgsl/index.js";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { frontEnd } from "../../../src/pipeline.js";

/** The WGSL backend's regression programs (regressions.test.ts runs them on WebGPU). */
const REGRESSIONS = "test/codegen/wgsl/regressions";
const files = [
  ...readdirSync("examples").filter((f) => f.endsWith(".gk")).map((f) => path.join("examples", f)),
  ...readdirSync("spec/ok").filter((f) => f.endsWith(".gk")).map((f) => path.join("spec/ok", f)),
  ...readdirSync(REGRESSIONS).filter((f) => f.endsWith(".gk")).map((f) => path.join(REGRESSIONS, f)),
].sort();

let device: GPUDevice | undefined;
let why = "";
beforeAll(async () => {
  try {
    const { create, globals } = await import("webgpu");
    Object.assign(globalThis, globals);
    const adapter = await create(["backend=null"]).requestAdapter();
    device = (await adapter?.requestDevice()) ?? undefined;
    if (!device) why = "Dawn's null backend gave no adapter";
  } catch (e) {
    why = `the webgpu package cannot load here (${e instanceof Error ? e.message : String(e)})`;
  }
});

describe("generated WGSL is valid to Dawn", () => {
  for (const file of files) {
    const r = frontEnd(file, { target: WGSL_TARGET });
    if (!r.ir) continue;
    const ir = r.ir;
    it(file, async (ctx) => {
      if (!device) return ctx.skip(why);
      const out = emitWgsl(ir);
      const module = device.createShaderModule({ code: out.source });
      const info = await module.getCompilationInfo();
      expect(info.messages.filter((m) => m.type === "error").map((m) => `${m.lineNum}:${m.linePos} ${m.message}`)).toEqual([]);
      for (const launch of ir.launches) {
        const k = out.kernels.get(launch.kernel)!;
        const constants: Record<string, number> = { [k.workgroupSize.x]: launch.block[0], [k.workgroupSize.y]: launch.block[1], [k.workgroupSize.z]: launch.block[2] };
        k.dynamicShared.forEach((d, i) => (constants[d.override] = launch.sharedLengths[i]!));
        device.pushErrorScope("validation");
        device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: k.entryPoint, constants } });
        const err = await device.popErrorScope();
        expect(err?.message ?? "", `${launch.kernel} grid(${launch.grid}) block(${launch.block})`).toBe("");
      }
    });
  }
});
