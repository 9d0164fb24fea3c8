/**
 * Running a host-side `launch` statement of a module on the simulator: its data helpers
 * become TypedArrays (src/runtime/data.ts), the kernel runs, and every array it may write
 * (each `global<T>` parameter that is not readonly) comes back by parameter name.
 */
import type { SourceMap } from "../../diagnostics/source.js";
import type { Launch, Module } from "../../ir/nodes.js";
import { invariant } from "../../util.js";
import { materialize } from "../data.js";
import type { SimArg } from "./args.js";
import { compileKernel, runKernel, type SimOptions, type SimResult, type TypedArray } from "./kernel.js";

export interface SimulatedLaunch {
  /** The arrays the kernel may write, after the run, by parameter name. */
  readonly outputs: Map<string, TypedArray>;
  /** Every argument as the kernel received it (arrays after the run), in parameter order. */
  readonly args: readonly SimArg[];
  readonly result: SimResult;
}

export function simulateLaunch(m: Module, launch: Launch, sources?: SourceMap, opts?: SimOptions): SimulatedLaunch {
  const k = compileKernel(m, launch.kernel, sources, opts);
  const params = k.kernel.params;
  invariant(params.length === launch.args.length, `launch of ${launch.kernel} has ${launch.args.length} arguments for ${params.length} parameters`);
  const args: SimArg[] = launch.args.map((a, i) => {
    invariant(a.param === params[i]!.name, `launch argument ${a.param} is not parameter ${params[i]!.name}`);
    return a.kind === "value" ? a.value : materialize(a.elem, a.data);
  });
  // The checker lists a launch's constants in the order the kernel reads them (constantsRead).
  const constants = launch.constants.map((c) => materialize(c.elem, c.data));
  const result = runKernel(k, { grid: launch.grid, block: launch.block, shared: launch.sharedLengths }, args, constants);
  const outputs = new Map<string, TypedArray>();
  params.forEach((p, i) => {
    if (p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly) outputs.set(p.name, args[i] as TypedArray);
  });
  return { outputs, args, result };
}
