/** Running a module's host-side `launch` statements, in order, on one runner. */
import type { Span } from "../diagnostics/source.js";
import type { Launch, Module } from "../ir/nodes.js";
import type { ValueType } from "../ir/types.js";
import type { AnyTypedArray } from "../ir/values.js";
import { invariant } from "../util.js";
import { materialize } from "./data.js";
import type { ArgValue, Runner } from "./runner.js";

export interface LaunchOutput {
  readonly elem: ValueType;
  /** The array as src/ir/values.ts checkArrayArg describes it (the bytes of an array of structs). */
  readonly data: AnyTypedArray;
}

export interface LaunchOutcome {
  readonly kernel: string;
  readonly span: Span;
  readonly device: "cuda" | "cpu" | "webgpu";
  /** Every array the kernel may write (non-readonly global parameters), by parameter name. */
  readonly outputs: ReadonlyMap<string, LaunchOutput>;
  readonly kernelMs: number;
}

/** Runs one launch statement, with its data helpers materialized. */
export async function runLaunch(ir: Module, launch: Launch, runner: Runner): Promise<LaunchOutcome> {
  const k = ir.kernels.find((f) => f.name === launch.kernel);
  invariant(k, `launch of unknown kernel ${launch.kernel}`);
  const args: ArgValue[] = launch.args.map((a) => (a.kind === "value" ? a.value : materialize(a.elem, a.data)));
  const constants = launch.constants.map((c) => materialize(c.elem, c.data));
  const timing = await runner.run(launch.kernel, launch.grid, launch.block, args, { constants, sharedLengths: launch.sharedLengths });
  const outputs = new Map<string, LaunchOutput>();
  k.params.forEach((p, i) => {
    if (p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly) {
      outputs.set(p.name, { elem: p.type.elem, data: args[i] as AnyTypedArray });
    }
  });
  return { kernel: launch.kernel, span: launch.span, device: runner.device.kind, outputs, kernelMs: timing.kernelMs };
}
