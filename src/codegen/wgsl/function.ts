/**
 * One kernel or device function instance:
 *
 *   @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
 *   fn saxpy(@builtin(local_invocation_id) gk_local_id: vec3<u32>, ...) {
 *     let n: i32 = gk_params_saxpy.p0;
 *     ...
 *   }
 *   fn dot3(a: vec3<f32>, i: i32) -> f32 { ... }
 *
 * A kernel's value parameters come from its uniform block (index.ts): each is put together
 * from its leaves at the top of the body. A device function's array parameters are not
 * parameters in WGSL: the instance names the caller's arrays (specialize.ts). WGSL
 * parameters cannot be assigned, so one the body assigns arrives as `gk_p_<name>` and is
 * copied into a `var` of its name. In a kernel, thread and block indices are the entry
 * point's builtins; device functions read them from private copies the kernel sets first
 * (only where some device function uses them).
 */
import type { ArrayVar, Function, Stmt, ValueVar } from "../../ir/nodes.js";
import { elementCount, type ArrayType, type StructType, type ValueType } from "../../ir/types.js";
import { visit } from "../../ir/walk.js";
import { invariant } from "../../util.js";
import type { ArrayRef } from "./expr.js";
import type { HelperSet } from "./helpers.js";
import { barriersOrderingGlobal } from "./loops.js";
import { WgslNames } from "./names.js";
import type { Instance } from "./specialize.js";
import { emitStmts, originalOf, type StmtContext } from "./stmt.js";
import { typeName, type StructNames } from "./types.js";

/** What emitting one function needs from the module. */
export interface ModuleContext {
  readonly moduleNames: ReadonlySet<string>;
  readonly functions: ReadonlyMap<string, Function>;
  readonly structs: StructNames;
  readonly field: (t: StructType, field: number) => string;
  readonly helpers: HelperSet;
  /** Device functions read thread indices from private copies (the kernel sets them first). */
  readonly privateSpecials: boolean;
}

/** A kernel's uniform leaves, for putting its value parameters together. */
export interface KernelInputs {
  /** The uniform block variable's name. */
  readonly uniform: string;
  /** For each value parameter (by IR id), its first leaf's slot number. */
  readonly firstLeaf: ReadonlyMap<number, number>;
}

export function emitFunction(inst: Instance, mc: ModuleContext, kernel?: KernelInputs): string[] {
  const f = inst.fn;
  const names = new WgslNames(mc.moduleNames);
  const vars = new Map<number, string>();
  const claim = (v: ValueVar | ArrayVar) => {
    if (!vars.has(v.id)) vars.set(v.id, names.claim(v.name));
  };
  f.params.forEach((p) => p.kind === "valueVar" && claim(p));
  visit(f.body, {
    stmt: (s: Stmt) => {
      if (s.kind === "let") claim(s.var);
      else if (s.kind === "localArray") claim(s.array);
    },
  });
  const assigned = new Set<number>();
  visit(f.body, { stmt: (s) => s.kind === "assign" && assigned.add(s.var.id) });
  const temps = new Map<number, string>();
  let nextTemp = -1000;
  const locals = new Map<number, ArrayRef>();
  const ordering = barriersOrderingGlobal(f.body);
  const cx: StmtContext = {
    name: (v) => {
      const n = temps.get(v.id) ?? vars.get(v.id);
      invariant(n !== undefined, `variable ${v.name} has no WGSL name`);
      return n;
    },
    array: (a) => {
      const m = inst.arrays.get(a.id);
      if (m) return m;
      let l = locals.get(a.id);
      if (!l) {
        claim(a);
        locals.set(a.id, (l = { name: vars.get(a.id)!, type: a.type, atomic: false, local: true }));
      }
      return l;
    },
    callee: (e) => {
      const c = inst.calls.get(e) ?? inst.calls.get(originalOf(e) as typeof e);
      invariant(c !== undefined, `call of ${e.callee} not planned`);
      return c.name;
    },
    structs: mc.structs,
    field: mc.field,
    helpers: mc.helpers,
    functions: mc.functions,
    specials: f.kind === "kernel" ? "entry" : "private",
    temp: (t: ValueType) => {
      const v: ValueVar = { kind: "valueVar", id: nextTemp--, name: "gk_t", type: t, mutable: true, span: f.span };
      temps.set(v.id, `gk_t${-999 - v.id}`);
      return v;
    },
    assigned,
    storageBarrier: (s) => f.kind !== "kernel" || ordering.has(s),
  };
  const tn = (t: ValueType) => typeName(t, mc.structs);

  if (f.kind === "kernel") {
    invariant(kernel !== undefined, `kernel ${f.name} without its inputs`);
    const params = [
      "@builtin(local_invocation_id) gk_local_id: vec3<u32>",
      "@builtin(workgroup_id) gk_group_id: vec3<u32>",
      "@builtin(num_workgroups) gk_num_groups: vec3<u32>",
      "@builtin(local_invocation_index) gk_local_index: u32",
    ];
    const head = ["@compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)", `fn ${inst.name}(${params.join(", ")}) {`];
    const setup = mc.privateSpecials
      ? ["  gk_threadIdx = gk_local_id;", "  gk_blockIdx = gk_group_id;", "  gk_gridDim = gk_num_groups;", "  gk_threadIndex = gk_local_index;"]
      : [];
    const inputs = f.params.flatMap((p) => {
      if (p.kind !== "valueVar") return [];
      let k = kernel.firstLeaf.get(p.id)!;
      const leaf = (t: ValueType | ArrayType): string => {
        switch (t.kind) {
          case "scalar": {
            const v = `${kernel.uniform}.p${k++}`;
            return t.name === "bool" ? `(${v} != 0u)` : v;
          }
          case "vector":
            return `${tn(t)}(${Array.from({ length: t.lanes }, () => leaf(t.elem)).join(", ")})`;
          case "struct":
            return `${tn(t)}(${t.fields.map((fl) => leaf(fl.type)).join(", ")})`;
          case "array": {
            const nest = (level: number): string =>
              `${typeName({ ...t, dims: t.dims.slice(level) }, mc.structs)}(${Array.from({ length: t.dims[level]! }, () => (level + 1 < t.dims.length ? nest(level + 1) : leaf(t.elem))).join(", ")})`;
            invariant(elementCount(t) > 0, "an empty array field");
            return nest(0);
          }
        }
      };
      return [`  ${assigned.has(p.id) ? "var" : "let"} ${cx.name(p)}: ${tn(p.type)} = ${leaf(p.type)};`];
    });
    return [...head, ...setup, ...inputs, ...emitStmts(f.body, cx, 1), "}"];
  }

  const params = f.params.flatMap((p) => {
    if (p.kind !== "valueVar") return [];
    invariant(!p.ref, `reference parameter ${p.name} reached the WGSL backend (legalize refuses it)`);
    return [`${assigned.has(p.id) ? `gk_p_${cx.name(p)}` : cx.name(p)}: ${tn(p.type)}`];
  });
  const copies = f.params.flatMap((p) => (p.kind === "valueVar" && assigned.has(p.id) ? [`  var ${cx.name(p)}: ${tn(p.type)} = gk_p_${cx.name(p)};`] : []));
  const result = f.returnType.kind === "void" ? "" : ` -> ${tn(f.returnType)}`;
  return [`fn ${inst.name}(${params.join(", ")})${result} {`, ...copies, ...emitStmts(f.body, cx, 1), "}"];
}
