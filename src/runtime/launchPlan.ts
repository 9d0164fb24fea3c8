/**
 * What launching one kernel needs to know about it, worked out once per kernel and kept with
 * it: its parameters (names, scalar types, element types, which go through wire.ts, which
 * arrays it writes, and the words its errors use), the constant arrays it reads (a walk of its body and its callees)
 * and its dynamic shared arrays. The API's checks (api.ts, launchExtras.ts) and the device's
 * launch path (device/launching.ts) read it instead of walking the
 * IR and building strings on every launch: a queued launch costs a few microseconds, and these
 * were most of them. The IR of a checked module does not change, so the facts stay true.
 */
import { constantsRead, dynamicSharedArrays, fixedSharedBytes } from "../ir/kernelMemory.js";
import type { ArrayVar, Function, Module } from "../ir/nodes.js";
import { type ScalarName, type ScalarType, typeToString } from "../ir/types.js";

export interface ParamPlan {
  readonly name: string;
  /** The type of a scalar value parameter; undefined for a vector or struct value and for an array. */
  readonly scalar: ScalarType | undefined;
  /** The element type of an array of scalars; undefined for a value and for an array of vectors or structs. */
  readonly elem: ScalarName | undefined;
  /**
   * A vector or struct value, or an array of vectors or structs: neither `scalar` nor `elem`.
   * Its argument is coerced (api.ts) and goes to the GPU through wireArg (wire.ts); the others
   * take the fast path (a scalar as it is, a TypedArray or GpuArray as it is).
   */
  readonly wire: boolean;
  /** An array the kernel may write (`global<T>` not readonly): returned by name, copied back. */
  readonly written: boolean;
  /** `parameter 'x' (global<f32>)`, as argument errors call it. */
  readonly what: string;
  /** `argument 'x' of saxpy`: the use a GPU array's check names, in the API's checks. */
  readonly argUse: string;
  /** `argument 'x' of a launch of saxpy`: the same, on the device's launch path. */
  readonly launchUse: string;
}

export interface LaunchPlan {
  readonly module: Module;
  readonly fn: Function;
  readonly params: readonly ParamPlan[];
  readonly names: readonly string[];
  /** Indices of the parameters the kernel may write. */
  readonly written: readonly number[];
  /** The constant arrays the kernel reads, in the order it first meets them (constantsRead). */
  readonly constants: readonly ArrayVar[];
  readonly constantNames: ReadonlySet<string>;
  /** The kernel's dynamic shared arrays, in declaration order. */
  readonly sharedArrays: readonly ArrayVar[];
  /** Bytes of the kernel's fixed-size shared arrays, unpadded: a launch needs no shared lengths checked when they fit the device's target (launchExtras.ts), and they lie in the dynamic shared memory past the target's `staticSharedBytes` (kernelMemory.ts, liftedSharedLayout). */
  readonly fixedSharedBytes: number;
  /** `launch of saxpy`: the use a closed device's error names. */
  readonly use: string;
}

const plans = new WeakMap<Function, LaunchPlan>();

/** The facts of kernel `fn` of module `m`, made at its first launch. */
export function launchPlan(m: Module, fn: Function): LaunchPlan {
  const known = plans.get(fn);
  if (known !== undefined && known.module === m) return known;
  const plan = makePlan(m, fn);
  plans.set(fn, plan);
  return plan;
}

function makePlan(m: Module, fn: Function): LaunchPlan {
  const params = fn.params.map((p): ParamPlan => {
    const array = p.kind === "arrayVar";
    const scalar = !array && p.type.kind === "scalar" ? p.type : undefined;
    const elem = array && p.type.elem.kind === "scalar" ? p.type.elem.name : undefined;
    return {
      name: p.name,
      scalar,
      elem,
      wire: scalar === undefined && elem === undefined,
      written: array && p.type.kind === "global" && !p.type.readonly,
      what: `parameter '${p.name}' (${typeToString(p.type)})`,
      argUse: `argument '${p.name}' of ${fn.name}`,
      launchUse: `argument '${p.name}' of a launch of ${fn.name}`,
    };
  });
  const constants = constantsRead(fn, new Map(m.functions.map((f) => [f.name, f])));
  const sharedArrays = dynamicSharedArrays(fn);
  return {
    module: m,
    fn,
    params,
    names: params.map((p) => p.name),
    written: params.flatMap((p, i) => (p.written ? [i] : [])),
    constants,
    constantNames: new Set(constants.map((a) => a.name)),
    sharedArrays,
    fixedSharedBytes: fixedSharedBytes(fn),
    use: `launch of ${fn.name}`,
  };
}
