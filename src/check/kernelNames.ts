/**
 * Names a kernel may not take. A compiled module (the TypeScript API's GkModule) has each
 * kernel as a member, `mod.saxpy(...)`, and a later version will export kernels as an ES
 * module's named exports: so a kernel name must not be one the module object already has,
 * one every JavaScript object has, or one JavaScript reads on its own (`then` makes an
 * object a thenable, which `await` calls; `default` is an ES module's default export).
 * One table, read by the checker (GK2010) and kept complete by a test over GkModule.
 *
 * And a kernel's name is its symbol in the built module (`extern "C"`), verbatim: a name C++,
 * the headers nvcc includes or the generated code already claim is refused (GK2011,
 * `kernelSymbolProblem`), from the lists of src/codegen/cuda/reserved.ts.
 */

import {
  builtinCudaNames, CPP_KEYWORDS, CUDA_API_PREFIXES, CUDA_BUILTIN_VARIABLES, CUDA_VECTOR_TYPES, GLOBAL_RESERVED_PREFIXES,
  HEADER_DECLARATIONS, HEADER_MACROS, MATH_FAMILIES, MATH_SUFFIXES,
} from "../codegen/cuda/reserved.js";

const MODULE_MEMBER = "a compiled module (GkModule) has a member of that name";
const OBJECT_MEMBER = "every JavaScript object has a member of that name";

export const TAKEN_KERNEL_NAMES: ReadonlyMap<string, string> = new Map([
  // GkModule's members (runtime/api.ts)
  ...["kernels", "structs", "ir", "sources", "target", "runner", "device", "gpu", "launch", "sync", "runLaunches", "close"].map((n) => [n, MODULE_MEMBER] as const),
  // Object.prototype's members
  ...[
    "constructor", "__proto__", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf",
    "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
  ].map((n) => [n, OBJECT_MEMBER] as const),
  // names JavaScript itself reads
  ["then", "it would make the module a thenable, and `await` would call the kernel instead of returning the module"],
  ["default", "'default' is an ES module's default export"],
]);

/** Why `name` cannot name a kernel, or undefined when it can. */
export function takenKernelName(name: string): string | undefined {
  return TAKEN_KERNEL_NAMES.get(name);
}

/**
 * Why a kernel's gk name cannot be its `extern "C"` symbol, or undefined when it can. A kernel
 * keeps its name verbatim (spec: Module-level declarations), so the rule is what C++, the
 * headers nvcc includes and the generated code itself claim at global scope, read from the
 * same lists as `isReservedIdentifier`; but the CUDA API's prefixes are matched with their
 * case (`cuda`, `cu` + capital, `CU_`, `CUDA_`, `CUDART`), so that `CUDAkernel2DCT` is a kernel
 * name (the headers' other CUDA-prefixed names are in the lists).
 */
export function kernelSymbolProblem(name: string): string | undefined {
  if (name.startsWith("_")) return "C++ reserves names that start with '_' for its implementation";
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return "it is not a C++ identifier";
  if (name.includes("__")) return "C++ reserves names with a double underscore for its implementation";
  if (/^gk_/i.test(name)) return "names that start with 'gk_' are the generated code's own";
  if (CPP_KEYWORDS.includes(name)) return ["main", "std", "errno"].includes(name) ? "C++ reserves it" : "it is a C++ keyword";
  if (CUDA_BUILTIN_VARIABLES.includes(name)) return "it is one of CUDA's built-in variables";
  if (HEADER_MACROS.includes(name)) return "the headers nvcc includes define a macro of that name";
  if (generatedNames().has(name)) return "the generated code calls a function of that name";
  if (HEADER_DECLARATIONS.includes(name) || CUDA_VECTOR_TYPES.includes(name) || MATH_FAMILIES.some((f) => MATH_SUFFIXES.some((s) => name === f + s || name === `${f}${s}_r`))) {
    return "the headers nvcc includes declare that name";
  }
  const prefix = [...GLOBAL_RESERVED_PREFIXES, ...CUDA_API_PREFIXES].find((p) => p.test(name));
  if (prefix) return `the CUDA headers declare names that start with ${prefixText(prefix)}`;
  return undefined;
}

let generated: ReadonlySet<string> | undefined;
/** Functions the generated code calls (the builtin table's CUDA templates), and CUDA's float remainders. */
function generatedNames(): ReadonlySet<string> {
  return (generated ??= new Set([...builtinCudaNames(), "fmodf", "fmod"]));
}

/** `/^cu[A-Z]/` as "'cu' and a capital letter", `/^make_/` as "'make_'". */
function prefixText(re: RegExp): string {
  const src = re.source.replace(/^\^/, "");
  return src.endsWith("[A-Z]") ? `'${src.slice(0, -5)}' and a capital letter` : `'${src}'`;
}
