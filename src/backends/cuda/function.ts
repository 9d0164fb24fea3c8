/**
 * One kernel or device function:
 *
 *   extern "C" __global__ void saxpy(int n, float alpha, const float* __restrict__ x, float* __restrict__ out) {
 *     __shared__ float tile[32][33];
 *     ...
 *   }
 *   static __device__ float dot3(const float* a, int i) { ... }
 *
 * A kernel's writable `global<T>` parameter is `T* __restrict__` (gk never passes one buffer
 * to two parameters of a launch), a readonly one `const T*`; a device function's a plain `T*`,
 * its `shared T[N]` parameter a reference to the caller's array, `T (&s)[N]`, an `inout`/`out`
 * one a reference `T&`, and a `view<T>` a `gk_view<T>` (a pointer and a stride, prelude.ts);
 * such a function is `__forceinline__`, so that nvcc knows the memory they point at. A device
 * function that nothing calls, and a local or shared array nothing reads, is `[[maybe_unused]]`,
 * since nvcc warns about them; a parameter set but never read is unnamed, and a local takes its name.
 *
 * A kernel with dynamic shared arrays (`shared buf: f32[];`) takes, after its parameters, the
 * length of each (`unsigned int gk_len_buf`, in declaration order, src/ir/kernelMemory.ts),
 * and places them in the one dynamic shared region, widest elements first:
 *
 *   extern __shared__ __align__(16) unsigned char gk_dynamic_shared[];
 *   double* sums = (double*)(gk_dynamic_shared);
 *   float* buf = (float*)(gk_dynamic_shared + 8ull * gk_len_sums);
 */
import type { Span } from "../../diagnostics/source.js";
import type { ArrayVar, Function, Param, ValueVar } from "../../ir/nodes.js";
import { byteSize } from "../../ir/types.js";
import { dynamicSharedLayout } from "../../ir/limits.js";
import { refTargets } from "./effects.js";
import { invariant } from "../../util.js";
import { line, type Line, type Loc } from "./lines.js";
import { variableNames, type GlobalNames } from "./names.js";
import { FunctionScope } from "./scope.js";
import { CUDA, cType } from "./settings.js";
import { emitStmts, type StmtContext } from "./stmt.js";
import { visit } from "../../ir/walk.js";
import { readVariables, reloadedBounds } from "./analysis.js";
import { droppedOperand } from "./expr.js";

/** What emitting one function needs to know about the module. */
export interface ModuleContext {
  /** C++ names of the module's functions, by IR name, and of its constant arrays. */
  readonly globalNames: GlobalNames;
  readonly functions: ReadonlyMap<string, Function>;
  /** IR names of the functions some function of the module calls. */
  readonly called: ReadonlySet<string>;
  readonly loc: (span: Span) => Loc | undefined;
  /** Built with -ftz=true (`@flushToZero;`). */
  readonly flushToZero: boolean;
}

export function emitFunction(f: Function, mc: ModuleContext): Line[] {
  const functionName = (irName: string) => {
    const n = mc.globalNames.functions.get(irName);
    invariant(n !== undefined, `call of unknown function ${irName}`);
    return n;
  };
  const refs = refTargets(f);
  const scope = new FunctionScope(variableNames(f, mc.globalNames), functionName, mc.functions, refs, reloadedBounds(f.body), mc.flushToZero);
  const read = readVariables(f.body, (e) => droppedOperand(e, mc.functions, refs));
  const cx: StmtContext = { scope, loc: mc.loc, unread: (id) => !read.has(id) };

  // nvcc warns about a parameter that is set but never read (#550).
  const assigned = new Set<number>();
  visit(f.body, { stmt: (st) => st.kind === "assign" && assigned.add(st.var.id) });
  const unreadScalar = (p: Param): p is ValueVar => p.kind === "valueVar" && !p.ref && assigned.has(p.id) && !read.has(p.id);
  // nvcc ignores [[maybe_unused]] on parameters, so such a parameter is left unnamed (its value
  // is never read) and the body gets a local of its name instead, which the attribute does quiet.
  const dynamic = f.shared.filter((a) => a.type.kind === "dynamicShared");
  const lengths = dynamic.map((a) => `unsigned int ${lengthName(a, scope)}`);
  const params = [...f.params.map((p) => (unreadScalar(p) ? `${cType(p.type)} /* ${scope.name(p)}: set, never read */` : paramText(p, f.kind, scope))), ...lengths].join(", ");
  const unreadLocals = f.params.filter(unreadScalar).map((p) => line(`${CUDA.indent}${CUDA.maybeUnused} ${cType(p.type)} ${scope.name(p)}{};`, mc.loc(p.span)));
  const name = functionName(f.name);
  // Inlined, so that nvcc knows the memory that shared, reference and view parameters point at
  // (its atomics differ between global and shared memory).
  const takesShared = f.params.some((p) => p.type.kind === "array" || p.type.kind === "view" || (p.kind === "valueVar" && p.ref));
  const head =
    f.kind === "kernel"
      ? `${CUDA.kernelQualifier} void ${name}(${params})`
      : `${mc.called.has(f.name) ? "" : `${CUDA.maybeUnused} `}${CUDA.deviceFnQualifier}${takesShared ? ` ${CUDA.forceInline}` : ""} ${f.returnType.kind === "void" ? "void" : cType(f.returnType)} ${name}(${params})`;

  const shared = f.shared.flatMap((a) => {
    if (a.type.kind !== "array") return [];
    const unused = read.has(a.id) ? "" : `${CUDA.maybeUnused} `;
    const dims = a.type.dims.map((d) => `[${d}]`).join("");
    return [line(`${CUDA.indent}${unused}${CUDA.sharedQualifier} ${cType(a.type.elem)} ${scope.name(a)}${dims};`, mc.loc(a.span))];
  });
  return [line(`${head} {`, mc.loc(f.span)), ...unreadLocals, ...shared, ...dynamicShared(dynamic, scope, read, mc), ...emitStmts(f.body, cx, 1), line("}")];
}

/** `gk_len_buf`: the parameter holding the length of the dynamic shared array `buf`. */
function lengthName(a: ArrayVar, scope: FunctionScope): string {
  return `${CUDA.internalPrefix}len_${scope.name(a)}`;
}

/** The dynamic shared region, and a pointer into it for each dynamic shared array, widest elements first. */
function dynamicShared(arrays: readonly ArrayVar[], scope: FunctionScope, read: ReadonlySet<number>, mc: ModuleContext): Line[] {
  if (arrays.length === 0) return [];
  const region = `${CUDA.internalPrefix}dynamic_shared`;
  const sizes = arrays.map((a) => byteSize(a.type.elem));
  const { order } = dynamicSharedLayout(sizes, arrays.map(() => 0));
  const lines = [line(`${CUDA.indent}extern ${CUDA.sharedQualifier} __align__(16) unsigned char ${region}[];`)];
  let offset = "";
  for (const i of order) {
    const a = arrays[i]!;
    const unused = read.has(a.id) ? "" : `${CUDA.maybeUnused} `;
    lines.push(line(`${CUDA.indent}${unused}${cType(a.type.elem)}* ${scope.name(a)} = (${cType(a.type.elem)}*)(${region}${offset});`, mc.loc(a.span)));
    offset += ` + ${sizes[i]}ull * ${lengthName(a, scope)}`;
  }
  return lines;
}

function paramText(p: Param, kind: Function["kind"], scope: FunctionScope): string {
  const name = scope.name(p);
  if (p.kind === "valueVar") return `${cType(p.type)}${p.ref ? "&" : ""} ${name}`;
  const t = p.type;
  invariant(t.kind !== "dynamicShared", `parameter ${p.name} is a dynamic shared array`);
  if (t.kind === "view") return `${CUDA.viewType}<${t.readonly ? "const " : ""}${cType(t.elem)}> ${name}`;
  if (t.kind === "array") {
    // A shared array of the caller's, by reference: indexing reads as in the kernel.
    invariant(t.space === "shared" && kind === "device_fn", `parameter ${p.name} is ${t.space} memory`);
    return `${cType(t.elem)} (&${name})${t.dims.map((n) => `[${n}]`).join("")}`;
  }
  // A kernel's arrays never alias: every launch argument is its own buffer (spec: Types), so
  // the arrays it writes are __restrict__. Besides being true, that steers nvcc 13.0 around
  // ptxas miscompiling loops whose bound is reloaded from one output array while another is
  // stored to. Readonly arrays are plain `const T*`: with `const __restrict__`, nvcc 13.0
  // merged `c ? in[i] : out[j]` into one read-only-cache load and read stale values of `out`
  // (both found by the GPU differential tests). A device function's parameters may alias
  // (f(a, a)), so they get neither.
  const restrict = kind === "kernel" && !t.readonly ? ` ${CUDA.kernelPointer}` : "";
  return `${t.readonly ? "const " : ""}${cType(t.elem)}*${restrict} ${name}`;
}
