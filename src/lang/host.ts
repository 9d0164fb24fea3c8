/**
 * What gk's kernel-language names do when host code (not a kernel) uses them. Kernels
 * written in TypeScript import gk's builtins from "gk" so that their bodies type-check; the
 * bodies never run on the host (gk compiles them), but the names must exist at run time,
 * and a host program that calls one by mistake gets a clear error (GK8019), not a wrong
 * number. Conversions (`f32(x)`) and `warpSize` mean on the host what they mean in a kernel.
 */
import { castSource, type Untyped } from "../check/untyped.js";
import { evalCast } from "../ir/evalOp.js";
import { scalarType, type ScalarName } from "../ir/types.js";
import { GkRuntimeError } from "../runtime/errors.js";

function onlyInKernels(what: string): GkRuntimeError {
  return new GkRuntimeError("GK8019", `${what} is gk's, for kernel bodies: it runs only on the device (in a kernel or a deviceFn), and host code cannot call or read it`);
}

/** A builtin function: throws when the host calls it. */
export function deviceOnly(name: string): never {
  const f = (): never => {
    throw onlyInKernels(`${name}()`);
  };
  Object.defineProperty(f, "name", { value: name });
  return f as never;
}

/** A thread index (`globalId`): reading `.x` on the host throws. */
export function deviceIndex(name: string): never {
  const axis = (a: string) => ({
    get: () => {
      throw onlyInKernels(`${name}.${a}`);
    },
    enumerable: true,
  });
  return Object.freeze(Object.defineProperties({}, { x: axis("x"), y: axis("y"), z: axis("z") })) as never;
}

/** A value that exists only per thread (`laneId`): NaN on the host, where no thread is running. */
export function deviceValue(): never {
  return NaN as never;
}

/**
 * `f32(x)` on the host: the conversion a kernel's `f32(x)` applies to a constant
 * (spec/language.md, Conversions), reading a number as an integer when it is a safe
 * integer and as an f64 otherwise, a bigint as an integer, a boolean as bool.
 */
export function hostCast(name: ScalarName): never {
  const to = scalarType(name);
  const f = (x: unknown): unknown => {
    if (typeof x === "boolean") return evalCast(scalarType("bool"), to, x);
    let u: Untyped;
    if (typeof x === "bigint") u = { kind: "int", value: x };
    else if (typeof x === "number") u = Number.isSafeInteger(x) ? { kind: "int", value: BigInt(x) } : { kind: "float", value: x };
    else throw new GkRuntimeError("GK8005", `${name}(x) converts a number, a bigint or a boolean, got ${x === null ? "null" : typeof x}`);
    const src = castSource(u);
    if (!src) throw new GkRuntimeError("GK8005", `${name}(${String(x)}): the integer is outside every gk integer type`);
    return evalCast(src.type, to, src.value);
  };
  Object.defineProperty(f, "name", { value: name });
  return f as never;
}
