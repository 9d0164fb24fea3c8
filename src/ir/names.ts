/** Names with a fixed meaning in gk: types, thread indices, builtins and launch data helpers. */
import { builtins } from "./builtins.js";
import { isScalarName, vectorSpelling, vectorTypeNamed } from "./types.js";

export const SPECIALS: ReadonlySet<string> = new Set(["threadIdx", "blockIdx", "blockDim", "gridDim", "globalId"]);

/** Functions that make launch data; only valid as `launch` arguments. */
export const DATA_HELPERS: ReadonlySet<string> = new Set(["zeros", "fill", "iota", "rand"]);

const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set(builtins.filter((b) => b.rule.kind !== "index" && b.rule.kind !== "constant").map((b) => b.name));

export function isBuiltinFunction(name: string): boolean {
  return BUILTIN_FUNCTIONS.has(name);
}

export function builtinFunctionNames(): Iterable<string> {
  return BUILTIN_FUNCTIONS;
}

/**
 * Names a declaration may not take: scalar and vector types (`f32x4`), `void`, the
 * thread-index builtins, barrier, bitcast and the atomics. Math function names (min, max, exp...), the warp operations,
 * `warpSize` and `laneId` may be shadowed (ported CUDA code often declares a `laneId`).
 */
export function isReservedName(name: string): boolean {
  return (
    isScalarName(name) || vectorSpelling(name) !== undefined || name === "void" || SPECIALS.has(name) || name === "barrier" || name === "bitcast" || name.startsWith("atomic") && BUILTIN_FUNCTIONS.has(name)
  );
}

/** What to tell a user who used a reserved name as a value. */
export function reservedNameHint(name: string): string {
  if (isScalarName(name)) return `'${name}' is a type; to convert a value write ${name}(x)`;
  if (vectorTypeNamed(name)) return `'${name}' is a vector type; to make a value write ${name}(...)`;
  if (vectorSpelling(name)) return `'${name}' is spelled like a vector type, which gk reserves`;
  if (name === "void") return "'void' is a type, not a value";
  if (SPECIALS.has(name)) return `'${name}' is not a value by itself: use ${name}.x, ${name}.y or ${name}.z`;
  if (name === "bitcast") return "'bitcast' reinterprets a value's bits: call it as bitcast<u32>(x)";
  return `'${name}' is a builtin function: call it`;
}
