/**
 * Differential testing of the WGSL backend: random kernels that WGSL can express, run on a
 * WebGPU device (SwiftShader in CI, the GPU's Vulkan driver on the GPU machine) and on the
 * simulator, which defines gk's semantics: every written array must agree bit for bit
 * (approx_* and fast_f32 arrays within the generator's tolerances, as on CUDA).
 *
 * The kernels are the generator's, restricted to what the WGSL target has (GenOptions.target);
 * a kernel legalize still refuses for WGSL is left out and counted. Kernels are checked and
 * legalized 25 at a time (GK_DIFF_WEBGPU_BATCH), and the accepted ones run from one shader per batch.
 *
 * Sizes: GK_DIFF_WEBGPU_KERNELS kernels drawn (default 400: a CI batch on a 2-core machine,
 * SwiftShader running the shaders on the CPU), seed GK_DIFF_SEED (default 1), from kernel
 * GK_DIFF_WEBGPU_START (default 0): CI runs seeds in batches, the GPU machine a larger count
 * (GK_DIFF_WEBGPU_KERNELS=4000). No time limit: it is CPU-bound. Skipped, with a one-line
 * reason, where there is no WebGPU adapter.
 *
 * GK_DIFF_WEBGPU_PROGRESS names a file the run appends to as it goes: a line per 100 kernels
 * (GK_DIFF_WEBGPU_EVERY; the counts so far) and each mismatch as it is found, so that a run stopped by a time limit
 * still says what it did. Ranges of one seed run in parallel processes, each its own
 * GK_DIFF_WEBGPU_START and progress file (test/differential/webgpu-shards.sh).
 */
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { afterAll, describe, expect, it } from "vitest";
import { legalize } from "../../src/ir/passes/legalize.js";
import type { AnyTypedArray } from "../../src/ir/values.js";
import { lineColOf } from "../../src/diagnostics/source.js";
import { WGSL_TARGET } from "../../src/codegen/wgsl/target.js";
import { openDevice, type GpuDevice } from "../../src/runtime/device/device.js";
import { deviceModule, launchOn } from "../../src/runtime/device/launching.js";
import { launchExtras } from "../../src/runtime/launchExtras.js";
import { compareValues, describeMismatches } from "../../src/testing/compare.js";
import { checkBatch, kernelSeed, sampleProgram, simulate, type CheckedBatch } from "../../src/testing/differential.js";
import { cloneArgs, kernelAtLine, printBatch, type Batch, type BatchEntry, type GenOptions } from "../../src/testing/gen/index.js";
import { webgpuAvailable } from "../runtime/webgpu/adapter.js";

const webgpu = await webgpuAvailable();
if (!webgpu.ok) console.warn(`test/differential/webgpu-random.test.ts skipped: ${webgpu.reason}`);

const COUNT = Number(process.env.GK_DIFF_WEBGPU_KERNELS ?? 400);
const START = Number(process.env.GK_DIFF_WEBGPU_START ?? 0);
const SEED = Number(process.env.GK_DIFF_SEED ?? 1);
/**
 * Kernels checked, legalized and put in one shader together (GK_DIFF_WEBGPU_BATCH, default 25):
 * Dawn compiles a pipeline from the whole module, so a larger one costs more per kernel (100
 * kernels on SwiftShader: 37 s in shaders of 200, 7.5 s in shaders of 25).
 */
const BATCH = Number(process.env.GK_DIFF_WEBGPU_BATCH ?? 25);
const PROGRESS = process.env.GK_DIFF_WEBGPU_PROGRESS;
/** Kernels between progress lines (GK_DIFF_WEBGPU_EVERY, default 100). */
const EVERY = Number(process.env.GK_DIFF_WEBGPU_EVERY ?? 100);
/** The generator's restriction to the WGSL target (src/testing/gen/universe.ts). */
const GEN: GenOptions = { target: WGSL_TARGET };

let device: GpuDevice | undefined;
afterAll(() => device?.close());

/** A line appended to the progress file (GK_DIFF_WEBGPU_PROGRESS), if one is named. */
function progress(line: string): void {
  if (PROGRESS) appendFileSync(PROGRESS, `${line}\n`);
}

/** A batch of kernels WGSL expresses: the batch checked, those legalize refuses left out. */
function wgslBatch(start: number, count: number): { readonly checked: CheckedBatch; readonly refused: number } {
  let entries = Array.from({ length: count }, (_, j) => ({ name: `k${start + j}`, program: sampleProgram(kernelSeed(SEED, start + j), GEN) }));
  const check = (list: typeof entries) => {
    const batch: Batch = printBatch(list);
    const checked = checkBatch(batch, `webgpu${start}.gk`);
    if (!checked.ir) throw new Error(`generated kernels do not check:\n${checked.problems.map((p) => `${p.kernel}: ${p.detail}`).join("\n")}`);
    return { batch, checked, refusals: legalize(checked.ir, WGSL_TARGET) };
  };
  for (let round = 0; entries.length > 0; round++) {
    const { batch, checked, refusals } = check(entries);
    if (refusals.length === 0) return { checked, refused: count - entries.length };
    const bad = new Set<string>();
    for (const d of refusals) {
      const f = d.span && checked.sources.get(d.span.file);
      const k = f && d.span ? kernelAtLine(batch, lineColOf(f, d.span.start).line) : undefined;
      if (k) bad.add(k.name);
    }
    // A refusal no kernel's lines hold (a span elsewhere): legalize the kernels one by one.
    if (bad.size === 0 || round > 2) entries = entries.filter((e) => check([e]).refusals.length === 0);
    else entries = entries.filter((e) => !bad.has(e.name));
  }
  return { checked: check([]).checked, refused: count };
}

/** The kernel on WebGPU and on the simulator; what differs, or undefined. */
async function compareOne(gpu: GpuDevice, c: CheckedBatch, mod: ReturnType<typeof deviceModule>, k: BatchEntry): Promise<string | undefined> {
  const ir = c.ir!;
  const fn = ir.kernels.find((f) => f.name === k.kernel)!;
  const want = simulate(ir, c.sources, k, { checkRaces: true });
  if ("error" in want) return `the simulator failed (a generator bug): ${want.error.message.split("\n")[0]}`;
  const args = cloneArgs(k.args);
  const extras = launchExtras(ir, fn, k.shared, k.constants, gpu.target.limits);
  try {
    const launched = launchOn(gpu, mod, fn, k.grid, k.block, args, {}, extras);
    if (launched) await launched;
    await gpu.sync();
  } catch (e) {
    return `WebGPU failed: ${e instanceof Error ? e.message.split("\n").slice(0, 4).join(" | ") : String(e)}`;
  }
  const diffs = fn.params.flatMap((p, i) => {
    if (p.kind !== "arrayVar" || p.type.kind !== "global" || p.type.readonly) return [];
    return compareValues(p.name, p.type.elem, want.outputs.get(p.name)!, args[i] as AnyTypedArray, k.tolerance[p.name]).flatMap((m) => describeMismatches(m, ["simulator", "WebGPU"]));
  });
  return diffs.length ? diffs.slice(0, 6).join("\n") : undefined;
}

/** The kernel from a module and shader of its own (after its batch's shader was refused). */
async function compareAlone(gpu: GpuDevice, k: BatchEntry): Promise<string | undefined> {
  const one = checkBatch(printBatch([{ name: k.name, program: k.program }]), `${k.name}.gk`);
  if (!one.ir) return `does not check alone: ${one.problems.map((p) => p.detail).join("; ")}`;
  return compareOne(gpu, one, deviceModule(one.ir, one.sources), one.batch.kernels[0]!);
}

describe.skipIf(!webgpu.ok)(`random kernels on WebGPU against the simulator (${webgpu.reason})`, () => {
  it(`${COUNT} kernels drawn, seed ${SEED}, from kernel ${START}`, async () => {
    device = await openDevice({ device: "webgpu" });
    const t0 = performance.now();
    const mismatches: { kernel: string; source: string; detail: string }[] = [];
    let ran = 0;
    let refused = 0;
    const counts = () => `${ran} run, ${refused} refused for WGSL, ${mismatches.length} mismatches, ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    progress(`seed ${SEED}, kernels ${START}..${START + COUNT - 1} on ${device.name}`);
    for (let start = START; start < START + COUNT; start += BATCH) {
      const b = wgslBatch(start, Math.min(BATCH, START + COUNT - start));
      refused += b.refused;
      const mod = deviceModule(b.checked.ir!, b.checked.sources);
      // One shader holds the batch: WGSL the device refuses would fail every kernel of it, so
      // then each kernel runs from a shader of its own, and only the ones at fault fail.
      let alone = false;
      for (const k of b.checked.batch.kernels) {
        let detail = alone ? await compareAlone(device, k) : await compareOne(device, b.checked, mod, k);
        if (!alone && detail?.includes("(its module's shader) was refused")) {
          alone = true;
          detail = await compareAlone(device, k);
        }
        ran++;
        if (detail !== undefined) {
          mismatches.push({ kernel: k.name, source: k.source, detail });
          progress(`MISMATCH ${k.name} (seed ${SEED}):\n${k.source}\n${detail}`);
        }
        if (ran % EVERY === 0) progress(counts());
      }
      progress(`kernels ${start}..${Math.min(start + BATCH, START + COUNT) - 1} done: ${counts()}`);
    }
    progress(`done: ${counts()}`);
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`webgpu differential: ${COUNT} kernels drawn, ${refused} refused for WGSL, ${ran} run, ${mismatches.length} mismatches, ${s} s (seed ${SEED})`);
    // Kernels must run: a generator that draws none WGSL expresses tests nothing.
    expect(ran, `of ${COUNT} kernels drawn, legalize refused all for WGSL`).toBeGreaterThan(0);
    if (mismatches.length === 0) return;
    const first = mismatches[0]!;
    expect.fail([`${mismatches.length} of ${ran} kernels differ (seed ${SEED}):`, ...mismatches.slice(0, 10).map((m) => `- ${m.kernel}: ${m.detail.split("\n")[0]}`), "", `${first.kernel}:`, first.source, first.detail].join("\n"));
  });
});
