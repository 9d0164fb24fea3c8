/**
 * Which WGSL function each call reaches. Core WGSL passes no pointer into a storage or
 * workgroup array to a function, so every array is a module-scope variable (a kernel's
 * buffers, its workgroup arrays, the constant arrays it binds) and a device function that
 * takes arrays is written once per combination of arrays it is called with: an instance,
 * whose accesses name those variables. A device function that reads a constant array is
 * written once per kernel too (each kernel binds its own). Other device functions are
 * written once. The walk also marks the arrays that atomics touch (their elements are then
 * `atomic<...>`, expr.ts).
 */
import type { ArrayVar, CallExpr, Function, Module } from "../../ir/nodes.js";
import { constantsRead } from "../../ir/kernelMemory.js";
import type { MemoryType } from "../../ir/types.js";
import { visit } from "../../ir/walk.js";
import { invariant } from "../../util.js";

/** A module-scope array variable of the generated WGSL. */
export interface ModuleArray {
  readonly kind: "buffer" | "workgroup" | "constant";
  /** The IR array it is (a kernel's parameter or shared array, or a module constant). */
  readonly source: ArrayVar;
  readonly type: MemoryType;
  /** Its WGSL name, given once every instance is known (index.ts). */
  name: string;
  atomic: boolean;
}

/** One WGSL function: a kernel, or an instance of a device function. */
export interface Instance {
  readonly fn: Function;
  /** The kernel it belongs to: itself for a kernel; for a device function instance that reads constants, the kernel whose constants; else undefined. */
  readonly kernel: string | undefined;
  /** The arrays its ArrayVars (parameters, constants) stand for, by IR id. */
  readonly arrays: Map<number, ModuleArray>;
  /** The instance each of its calls reaches. */
  readonly calls: Map<CallExpr, Instance>;
  /** Its WGSL name, given once every instance is known. */
  name: string;
}

export interface KernelPlan {
  readonly instance: Instance;
  /** Its global parameters' buffers, in parameter order. */
  readonly buffers: readonly ModuleArray[];
  /** Its shared arrays (fixed and dynamic), in declaration order. */
  readonly shared: readonly ModuleArray[];
  /** The constant arrays it reads, in the order it first meets them. */
  readonly constants: readonly ModuleArray[];
}

export interface Plan {
  readonly kernels: readonly KernelPlan[];
  /** Device function instances, in the order first called. */
  readonly instances: readonly Instance[];
}

export function plan(m: Module): Plan {
  const functions = new Map([...m.functions, ...m.kernels].map((f) => [f.name, f]));
  const readsConstants = new Map<string, boolean>();
  const touchesConstants = (f: Function) => {
    let r = readsConstants.get(f.name);
    if (r === undefined) readsConstants.set(f.name, (r = constantsRead(f, functions).length > 0));
    return r;
  };
  const instances = new Map<string, Instance>();
  const kernels = m.kernels.map((k): KernelPlan => {
    const arrays = new Map<number, ModuleArray>();
    const array = (kind: ModuleArray["kind"], a: ArrayVar): ModuleArray => ({ kind, source: a, type: a.type, name: "", atomic: false });
    const buffers = k.params.flatMap((p) => (p.kind === "arrayVar" && p.type.kind === "global" ? [array("buffer", p)] : []));
    const shared = k.shared.map((a) => array("workgroup", a));
    const constants = constantsRead(k, functions).map((a) => array("constant", a));
    for (const a of [...buffers, ...shared, ...constants]) arrays.set(a.source.id, a);
    const instance: Instance = { fn: k, kernel: k.name, arrays, calls: new Map(), name: "" };
    walk(instance);
    return { instance, buffers, shared, constants };

    function walk(inst: Instance): void {
      visit(inst.fn.body, {
        expr: (e) => {
          if (e.kind === "atomic") {
            const a = inst.arrays.get(e.array.id);
            invariant(a !== undefined, `atomic on ${e.array.name}, which is no module array`);
            a.atomic = true;
          }
          if (e.kind !== "call") return;
          const callee = functions.get(e.callee);
          invariant(callee !== undefined, `call of unknown function ${e.callee}`);
          const passed = new Map<number, ModuleArray>();
          callee.params.forEach((p, i) => {
            const arg = e.args[i];
            if (p.kind !== "arrayVar") return;
            invariant(arg?.kind === "arrayArg", `argument ${i + 1} of ${e.callee} is not an array`);
            const a = inst.arrays.get(arg.array.id);
            invariant(a !== undefined, `array ${arg.array.name} passed to ${e.callee} is no module array`);
            passed.set(p.id, a);
          });
          const ownKernel = touchesConstants(callee) ? k.name : undefined;
          const key = `${callee.name}|${[...passed.values()].map((a) => `${a.kind}:${k.name}:${a.source.id}`).join(",")}|${ownKernel ?? ""}`;
          // Arrays of one kernel make a key of their own: instances never mix kernels' arrays.
          const shareable = passed.size === 0 && ownKernel === undefined;
          const fullKey = shareable ? callee.name : key;
          let callee_ = instances.get(fullKey);
          if (!callee_) {
            const own = new Map(passed);
            for (const c of constants) own.set(c.source.id, c);
            callee_ = { fn: callee, kernel: ownKernel, arrays: own, calls: new Map(), name: "" };
            instances.set(fullKey, callee_);
            walk(callee_);
          }
          inst.calls.set(e, callee_);
        },
      });
    }
  });
  return { kernels, instances: [...instances.values()] };
}
