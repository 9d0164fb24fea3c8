/**
 * A spec/ok program's launch statements run on the simulator and on the GPU (built without FMA
 * contraction), launch by launch, for the GPU tests to compare as each needs (bytes, ulp, a
 * relative bound). The GPU runner goes into `runners`, which the test file closes.
 */
import { join } from "node:path";
import type { Launch, Module } from "../../src/ir/nodes.js";
import { frontEnd } from "../../src/pipeline.js";
import { runLaunch, type LaunchOutcome } from "../../src/runtime/launches.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { createRunner, type Runner } from "../../src/runtime/runner.js";

export interface LaunchPair {
  readonly launch: Launch;
  /** On the simulator. */
  readonly want: LaunchOutcome;
  /** On the GPU. */
  readonly got: LaunchOutcome;
}

export async function specLaunchesBothWays(file: string, runners: Runner[]): Promise<{ readonly ir: Module; readonly pairs: readonly LaunchPair[] }> {
  const fe = frontEnd(join("spec/ok", file));
  const ir = fe.ir!;
  const cpu = createRunner(ir, fe.sources, await openDevice({ device: "cpu" }));
  const cuda = createRunner(ir, fe.sources, await openDevice({ device: "cuda" }), { fmad: false });
  runners.push(cuda);
  const pairs: LaunchPair[] = [];
  for (const launch of ir.launches) pairs.push({ launch, want: await runLaunch(ir, launch, cpu), got: await runLaunch(ir, launch, cuda) });
  return { ir, pairs };
}
