/**
 * The generator's `target` option (src/testing/gen/kernel.ts): without one, the same seeds give
 * the same kernels as before the option existed (the CUDA differential's seeds keep their
 * meaning); with WGSL's, the kernels legalize for WGSL and Dawn takes their shaders (on its
 * null backend: Tint's checks, no driver; as test/codegen/wgsl/validate.test.ts does).
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { emitWgsl } from "../../../src/codegen/wgsl/index.js";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { formatDiagnostic } from "../../../src/diagnostics/format.js";
import { legalize } from "../../../src/ir/passes/legalize.js";
import { checkBatch, kernelSeed, sampleProgram } from "../../../src/testing/differential.js";
import { generatedKernel, printBatch } from "../../../src/testing/gen/index.js";

/** A digest of 120 kernels' sources and arguments, seeds 1, 2 and 7, without a target. */
function untargetedDigest(): string {
  const h = createHash("sha256");
  for (const seed of [1, 2, 7])
    for (let i = 0; i < 40; i++) {
      const k = generatedKernel(sampleProgram(kernelSeed(seed, i)), "k");
      h.update(k.source);
      h.update(JSON.stringify(k.args, (_, v) => (typeof v === "bigint" ? `${v}n` : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<unknown>, String) : v)));
    }
  return h.digest("hex");
}

describe("no target: the kernels of before", () => {
  it("gives the same kernels for the same seeds", () => {
    expect(untargetedDigest()).toBe("31602b6a84357c950e83f61901406399652bffc306cc73b1f0499a29372fd309");
  });
});

/** Kernels of the WGSL target: legalize's refusals and Dawn's shader errors, per kernel. */
async function wgslOutcomes(device: GPUDevice | undefined, seed: number, count: number): Promise<{ name: string; problem: string | undefined }[]> {
  const out: { name: string; problem: string | undefined }[] = [];
  for (let i = 0; i < count; i++) {
    const name = `k${i}`;
    const batch = printBatch([{ name, program: sampleProgram(kernelSeed(seed, i), { target: WGSL_TARGET }) }]);
    const checked = checkBatch(batch, `${name}.gk`);
    if (!checked.ir) {
      out.push({ name, problem: `does not check: ${checked.problems[0]?.detail}` });
      continue;
    }
    const refusals = legalize(checked.ir, WGSL_TARGET);
    if (refusals.length) {
      out.push({ name, problem: `legalize: ${formatDiagnostic(refusals[0]!, checked.sources).split("\n")[0]}` });
      continue;
    }
    if (!device) {
      out.push({ name, problem: undefined });
      continue;
    }
    const k = batch.kernels[0]!;
    const wgsl = emitWgsl(checked.ir);
    const fn = checked.ir.kernels.find((f) => f.name === k.kernel)!;
    const d = wgsl.kernels.get(fn.name)!;
    const module = device.createShaderModule({ code: wgsl.source });
    const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === "error");
    if (errors.length) {
      out.push({ name, problem: `shader: ${errors[0]!.lineNum}:${errors[0]!.linePos} ${errors[0]!.message}` });
      continue;
    }
    const constants: Record<string, number> = { [d.workgroupSize.x]: k.block[0], [d.workgroupSize.y]: k.block[1], [d.workgroupSize.z]: k.block[2] };
    for (const s of d.dynamicShared) constants[s.override] = k.shared[s.name]!;
    device.pushErrorScope("validation");
    device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: d.entryPoint, constants } });
    const err = await device.popErrorScope();
    out.push({ name, problem: err ? `pipeline: ${err.message.split("\n")[0]}` : undefined });
  }
  return out;
}

describe("the WGSL target", () => {
  let device: GPUDevice | undefined;
  let why = "";
  // Dawn's instance, held for the file's life: Dawn aborts where it is collected while a device lives.
  let gpu: GPU | undefined;
  beforeAll(async () => {
    try {
      const { create, globals } = await import("webgpu");
      Object.assign(globalThis, globals);
      gpu = create(["backend=null"]);
      const adapter = await gpu.requestAdapter();
      device = (await adapter?.requestDevice()) ?? undefined;
      if (!device) why = "Dawn's null backend gave no adapter";
    } catch (e) {
      why = `the webgpu package cannot load here (${e instanceof Error ? e.message : String(e)})`;
    }
  });

  it("gives kernels that check and legalize for WGSL: 95% of 200 at least", async () => {
    const bad = (await wgslOutcomes(undefined, 3, 200)).filter((o) => o.problem !== undefined);
    expect(bad.length, bad.slice(0, 5).map((o) => `${o.name}: ${o.problem}`).join("\n")).toBeLessThanOrEqual(10);
  });

  it("gives kernels whose shaders Dawn takes: 95% of 200 at least", async (ctx) => {
    if (!device) return ctx.skip(why);
    const bad = (await wgslOutcomes(device, 3, 200)).filter((o) => o.problem !== undefined);
    expect(bad.length, bad.map((o) => `${o.name}: ${o.problem}`).join("\n")).toBeLessThanOrEqual(10);
  });
});
