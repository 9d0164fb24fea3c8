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
 * and its `shared T[N]` parameter a reference to the caller's array, `T (&s)[N]` (such a
 * function is `__forceinline__`, so that nvcc knows the memory it points at). A device function
 * that nothing calls, and a local or shared array nothing reads, is `[[maybe_unused]]`, since
 * nvcc warns about them; a parameter set but never read is unnamed, and a local takes its name.
 */
import type { Span } from "../../diagnostics/source.js";
import type { Function, Param, ValueVar } from "../../ir/nodes.js";
import { invariant } from "../../util.js";
import { line, type Line, type Loc } from "./lines.js";
import { variableNames } from "./names.js";
import { FunctionScope } from "./scope.js";
import { CUDA, cType } from "./settings.js";
import { emitStmts, type StmtContext } from "./stmt.js";
import { visit } from "../../ir/walk.js";
import { readVariables, reloadedBounds } from "./analysis.js";
import { droppedOperand } from "./expr.js";

/** What emitting one function needs to know about the module. */
export interface ModuleContext {
  /** C++ names of the module's functions, by IR name. */
  readonly functionNames: ReadonlyMap<string, string>;
  readonly functions: ReadonlyMap<string, Function>;
  /** IR names of the functions some function of the module calls. */
  readonly called: ReadonlySet<string>;
  readonly loc: (span: Span) => Loc | undefined;
}

export function emitFunction(f: Function, mc: ModuleContext): Line[] {
  const functionName = (irName: string) => {
    const n = mc.functionNames.get(irName);
    invariant(n !== undefined, `call of unknown function ${irName}`);
    return n;
  };
  const scope = new FunctionScope(variableNames(f, mc.functionNames.values()), functionName, mc.functions, reloadedBounds(f.body));
  const read = readVariables(f.body, (e) => droppedOperand(e, mc.functions));
  const cx: StmtContext = { scope, loc: mc.loc, unread: (id) => !read.has(id) };

  // nvcc warns about a parameter that is set but never read (#550).
  const assigned = new Set<number>();
  visit(f.body, { stmt: (st) => st.kind === "assign" && assigned.add(st.var.id) });
  const unreadScalar = (p: Param): p is ValueVar => p.kind === "valueVar" && assigned.has(p.id) && !read.has(p.id);
  // nvcc ignores [[maybe_unused]] on parameters, so such a parameter is left unnamed (its value
  // is never read) and the body gets a local of its name instead, which the attribute does quiet.
  const params = f.params.map((p) => (unreadScalar(p) ? `${cType(p.type)} /* ${scope.name(p)}: set, never read */` : paramText(p, f.kind, scope))).join(", ");
  const unreadLocals = f.params.filter(unreadScalar).map((p) => line(`${CUDA.indent}${CUDA.maybeUnused} ${cType(p.type)} ${scope.name(p)}{};`, mc.loc(p.span)));
  const name = functionName(f.name);
  // Inlined, so that nvcc knows the shared parameters' memory (its atomics differ from global memory's).
  const takesShared = f.params.some((p) => p.type.kind === "array");
  const head =
    f.kind === "kernel"
      ? `${CUDA.kernelQualifier} void ${name}(${params})`
      : `${mc.called.has(f.name) ? "" : `${CUDA.maybeUnused} `}${CUDA.deviceFnQualifier}${takesShared ? ` ${CUDA.forceInline}` : ""} ${f.returnType.kind === "void" ? "void" : cType(f.returnType)} ${name}(${params})`;

  const shared = f.shared.map((a) => {
    invariant(a.type.kind === "array", "a shared array of array type");
    const unused = read.has(a.id) ? "" : `${CUDA.maybeUnused} `;
    const dims = a.type.dims.map((d) => `[${d}]`).join("");
    return line(`${CUDA.indent}${unused}${CUDA.sharedQualifier} ${cType(a.type.elem)} ${scope.name(a)}${dims};`, mc.loc(a.span));
  });
  return [line(`${head} {`, mc.loc(f.span)), ...unreadLocals, ...shared, ...emitStmts(f.body, cx, 1), line("}")];
}

function paramText(p: Param, kind: Function["kind"], scope: FunctionScope): string {
  const name = scope.name(p);
  if (p.kind === "valueVar") return `${cType(p.type)} ${name}`;
  const t = p.type;
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
