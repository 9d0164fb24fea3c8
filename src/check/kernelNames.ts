/**
 * Names a kernel may not take, in any target. A compiled module (the TypeScript API's
 * GkModule) has each kernel as a member, `mod.saxpy(...)`, and a later version will export kernels as an ES
 * module's named exports: so a kernel name must not be one the module object already has,
 * one every JavaScript object has, or one JavaScript reads on its own (`then` makes an
 * object a thenable, which `await` calls; `default` is an ES module's default export).
 * One table, read by the checker (GK2010) and kept complete by a test over GkModule.
 *
 * A kernel's name is also its symbol in the built module, verbatim: which names a target
 * refuses for that (GK2011) its record says (src/ir/target.ts; CUDA's: `kernelSymbolProblem`
 * in src/codegen/cuda/reserved.ts), handed to the checker.
 */

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
