/**
 * What an API launch gives besides the kernel's parameters (spec/language.md, Constant
 * memory and Dynamic shared memory): the contents of every constant array the kernel reads,
 * by name among the arguments (`{ x, out, TAPS }`: TypedArrays, or plain arrays converted),
 * and the length of each dynamic shared array, by name in the configuration (`{ shared: { buf:
 * 256 } }`). Checked before anything runs, by the same rules as the simulator and the checker's
 * launch statements (src/ir/kernelMemory.ts): GK8005 for the constants, GK8010 for shared memory.
 */
import { didYouMean } from "../ir/check/symbols.js";
import { constantElem, constantLength, constantsRead, constantValueProblem, dynamicSharedArrays, sharedLengthsProblem } from "../ir/kernelMemory.js";
import type { Function, Module } from "../ir/nodes.js";
import { scalarType } from "../ir/types.js";
import { coerceScalar, newTypedArray, storedValue, type AnyTypedArray } from "../ir/values.js";
import { GkRuntimeError } from "./launcher/errors.js";
import type { LaunchExtras } from "./runner.js";

export interface ApiLaunchExtras extends LaunchExtras {
  /** Names among the arguments that are constant arrays, not parameters. */
  readonly names: ReadonlySet<string>;
}

export function launchExtras(m: Module, fn: Function, shared: unknown, args: Readonly<Record<string, unknown>>): ApiLaunchExtras {
  const reads = constantsRead(fn, new Map(m.functions.map((f) => [f.name, f])));
  const constants = reads.map((a): AnyTypedArray => {
    const v = args[a.name];
    if (v === undefined) throw new GkRuntimeError("GK8005", `${fn.name}: missing argument '${a.name}', a constant array it reads (${constantElem(a).name}, ${constantLength(a)} elements)`);
    const value = Array.isArray(v) ? fromPlain(fn, a.name, constantElem(a).name, v) : v;
    const problem = constantValueProblem(a, value);
    if (problem) throw new GkRuntimeError("GK8005", `${fn.name}: ${problem}`);
    return value as AnyTypedArray;
  });
  return { constants, sharedLengths: lengths(fn, shared), names: new Set(reads.map((a) => a.name)) };
}

function fromPlain(fn: Function, name: string, elem: Parameters<typeof newTypedArray>[0], values: readonly unknown[]): AnyTypedArray {
  const out = newTypedArray(elem, values.length);
  values.forEach((x, i) => {
    const c = coerceScalar(scalarType(elem), x);
    if (!c.ok) throw new GkRuntimeError("GK8005", `${fn.name}: element ${i} of the constant array '${name}' is not a ${elem}: ${String(x)}`);
    (out as unknown as (number | bigint)[])[i] = storedValue(elem, c.value);
  });
  return out;
}

/** `config.shared` by name, as the lengths in declaration order. */
function lengths(fn: Function, shared: unknown): number[] {
  const arrays = dynamicSharedArrays(fn);
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
  const problem = sharedLengthsProblem(fn, out);
  if (problem) throw fail(problem);
  return out as number[];
}
