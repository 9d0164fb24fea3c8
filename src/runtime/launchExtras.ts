/**
 * What an API launch gives besides the kernel's parameters (spec/language.md, Constant
 * memory and Dynamic shared memory): the contents of every constant array the kernel reads,
 * by name among the arguments (`{ x, out, TAPS }`: TypedArrays, or plain arrays converted),
 * and the length of each dynamic shared array, by name in the configuration (`{ shared: { buf:
 * 256 } }`). Checked before anything runs, by the same rules as the simulator and the checker's
 * launch statements (src/ir/kernelMemory.ts), against the limits of the device's target:
 * GK8005 for the constants, GK8010 for shared memory.
 *
 * The constants are copied here, when the launch is made, as a GPU copies them into constant
 * memory before the kernel runs: a queued launch reads what it was given even if the caller
 * changes the array before it runs, and a constant may share memory with an array the kernel
 * writes (the simulator, which would otherwise read that memory live, reads the copy too).
 */
import { didYouMean } from "../diagnostics/didYouMean.js";
import { constantElem, constantLength, constantValueProblem, sharedLengthsProblem } from "../ir/kernelMemory.js";
import type { Limits } from "../ir/limits.js";
import type { ArrayVar, Function, Module } from "../ir/nodes.js";
import { scalarType } from "../ir/types.js";
import { coerceScalar, holeIn, newTypedArray, storedValue, type AnyTypedArray } from "../ir/values.js";
import { GkRuntimeError } from "./errors.js";
import { launchPlan, type LaunchPlan } from "./launchPlan.js";
import type { LaunchExtras } from "./device/launching.js";

export interface ApiLaunchExtras extends LaunchExtras {
  /** Names among the arguments that are constant arrays, not parameters. */
  readonly names: ReadonlySet<string>;
}

const NONE: ApiLaunchExtras = Object.freeze({ constants: Object.freeze([]) as readonly AnyTypedArray[], sharedLengths: Object.freeze([]) as readonly number[], names: new Set<string>() });

/** The extras of a launch of `fn` on a device whose target has these `limits`. */
export function launchExtras(m: Module, fn: Function, shared: unknown, args: Readonly<Record<string, unknown>>, limits: Limits): ApiLaunchExtras {
  const plan = launchPlan(m, fn);
  // The common case, a kernel with neither: nothing to check or to make.
  if (plan.constants.length === 0 && shared === undefined && plan.sharedArrays.length === 0 && plan.fixedSharedBytes <= limits.staticSharedBytes) return NONE;
  const reads = plan.constants;
  const constants = reads.map((a): AnyTypedArray => {
    const v = Object.hasOwn(args, a.name) ? args[a.name] : undefined;
    if (v === undefined) throw new GkRuntimeError("GK8005", `${fn.name}: missing argument '${a.name}', a constant array it reads (${constantElem(a).name}, ${constantLength(a)} elements)`);
    if (Array.isArray(v)) return checked(fn, a, fromPlain(fn, a.name, constantElem(a).name, v));
    return checked(fn, a, v).slice();
  });
  return { constants, sharedLengths: lengths(plan, shared, limits), names: plan.constantNames };
}

function checked(fn: Function, a: ArrayVar, value: unknown): AnyTypedArray {
  const problem = constantValueProblem(a, value);
  if (problem) throw new GkRuntimeError("GK8005", `${fn.name}: ${problem}`);
  return value as AnyTypedArray;
}

function fromPlain(fn: Function, name: string, elem: Parameters<typeof newTypedArray>[0], values: readonly unknown[]): AnyTypedArray {
  const hole = holeIn(values);
  if (hole !== undefined) throw new GkRuntimeError("GK8005", `${fn.name}: the constant array '${name}' has a hole at index ${hole}: give every element of a plain array`);
  const out = newTypedArray(elem, values.length);
  values.forEach((x, i) => {
    const c = coerceScalar(scalarType(elem), x);
    if (!c.ok) throw new GkRuntimeError("GK8005", `${fn.name}: element ${i} of the constant array '${name}' is not a ${elem}: ${String(x)}`);
    (out as unknown as (number | bigint)[])[i] = storedValue(elem, c.value);
  });
  return out;
}

/** `config.shared` by name, as the lengths in declaration order. */
function lengths(plan: LaunchPlan, shared: unknown, limits: Limits): number[] {
  const fn = plan.fn;
  const arrays = plan.sharedArrays;
  const fail = (why: string) => new GkRuntimeError("GK8010", `${fn.name}: ${why}`);
  if (shared !== undefined && (typeof shared !== "object" || shared === null || Array.isArray(shared))) {
    throw fail(`'shared' is the length of each dynamic shared array by name, e.g. { shared: { ${arrays[0]?.name ?? "buf"}: 256 } }`);
  }
  const given = (shared ?? {}) as Record<string, unknown>;
  const names = arrays.map((a) => a.name);
  for (const k of Object.keys(given)) {
    if (!names.includes(k)) throw fail(`there is no dynamic shared array '${k}'${didYouMean(k, names)} (${names.length ? `its dynamic shared arrays: ${names.join(", ")}` : "it has none"})`);
  }
  const missing = names.filter((n) => given[n] === undefined);
  if (missing.length) throw fail(`missing the length of ${missing.map((n) => `'${n}'`).join(", ")}: give { shared: { ${missing.map((n) => `${n}: ...`).join(", ")} } }`);
  const out = names.map((n) => given[n]);
  const problem = sharedLengthsProblem(fn, out, limits);
  if (problem) throw fail(problem);
  return out as number[];
}
