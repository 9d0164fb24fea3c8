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
 * A kernel's vector or struct parameter arrives as its scalars, one kernel argument each, in
 * leaf order (spec/language.md, "Kernel arguments"), and the body starts by putting it together:
 *
 *   extern "C" __global__ void k(float gk_p_0, float gk_p_1, int gk_p_2) {
 *     Pair p = Pair{gk_f32x2{gk_p_0, gk_p_1}, gk_p_2};
 *
 * A shared or local array that vector accesses read or write is `__align__(N)`, N the widest
 * such access (also through device functions it is passed to), so nvcc may use them.
 *
 * A kernel with dynamic shared arrays (`shared buf: f32[];`) takes, after its parameters, the
 * length of each (`unsigned int gk_len_buf`, in declaration order, src/ir/kernelMemory.ts),
 * and places them in the one dynamic shared region, widest elements first, each at a multiple
 * of 16 bytes (so load4/store4 may move 16 of them at once):
 *
 *   extern __shared__ __align__(16) unsigned char gk_dynamic_shared[];
 *   double* sums = (double*)(gk_dynamic_shared);
 *   float* buf = (float*)(gk_dynamic_shared + ((8ull * gk_len_sums + 15ull) & ~15ull));
 *
 * A kernel whose fixed-size shared arrays take more than 48 KiB (nvcc's limit for `__shared__`)
 * has them at the start of that region instead, each a reference to an array at a multiple of
 * 16 bytes (src/ir/kernelMemory.ts, liftedSharedLayout), its dynamic arrays after them:
 *
 *   float (&tile)[128][128] = *reinterpret_cast<float (*)[128][128]>(gk_dynamic_shared + 0ull);
 */
import type { Span } from "../../diagnostics/source.js";
import type { ArrayVar, Function, Param, ValueVar } from "../../ir/nodes.js";
import { alignOf, byteSize, elementCount, type ArrayType, type ValueType } from "../../ir/types.js";
import { dynamicSharedLayout } from "../../ir/limits.js";
import { liftedSharedLayout } from "../../ir/kernelMemory.js";
import { CUDA_TARGET } from "./target.js";
import { refTargets } from "./effects.js";
import { invariant } from "../../util.js";
import { line, type Line, type Loc } from "./lines.js";
import { variableNames, type GlobalNames } from "./names.js";
import { FunctionScope } from "./scope.js";
import { CUDA } from "./settings.js";
import { emitStmts, type StmtContext } from "./stmt.js";
import type { TypeNames } from "./types.js";
import { visit } from "../../ir/walk.js";
import { readVariables, reloadedBounds } from "./analysis.js";
import { droppedOperand } from "./expr.js";
import { CUDA_WARP, WARP_MASK } from "./builtins.js";

/** What emitting one function needs to know about the module. */
export interface ModuleContext {
  /** C++ names of the module's functions, by IR name, and of its constant arrays. */
  readonly globalNames: GlobalNames;
  /** Every C++ name at global scope that a variable may not take (names.ts, globalIdentifiers). */
  readonly globalIdentifiers: ReadonlySet<string>;
  readonly functions: ReadonlyMap<string, Function>;
  /** IR names of the functions some function of the module calls. */
  readonly called: ReadonlySet<string>;
  readonly loc: (span: Span) => Loc | undefined;
  readonly types: TypeNames;
  /** Per function (by IR name), the alignment each of its arrays needs for vector accesses, by array id. */
  readonly alignments: ReadonlyMap<string, ReadonlyMap<number, number>>;
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
  const scope = new FunctionScope(variableNames(f, mc.globalIdentifiers), mc.globalNames.constants, functionName, mc.functions, mc.types, refs, reloadedBounds(f.body), mc.flushToZero);
  const read = readVariables(f.body, (e) => droppedOperand(e, mc.functions, refs));
  const aligned = mc.alignments.get(f.name);
  const cx: StmtContext = { scope, loc: mc.loc, unread: (id) => !read.has(id), align: (a) => vectorAlign(a, aligned?.get(a.id) ?? 0), kernel: f.kind === "kernel" };
  const tn = mc.types.name;

  // nvcc warns about a parameter that is set but never read (#550).
  const assigned = new Set<number>();
  visit(f.body, { stmt: (st) => st.kind === "assign" && assigned.add(st.var.id) });
  const flattened = (p: Param): boolean => f.kind === "kernel" && p.kind === "valueVar" && p.type.kind !== "scalar";
  const unreadScalar = (p: Param): p is ValueVar => p.kind === "valueVar" && !p.ref && !flattened(p) && assigned.has(p.id) && !read.has(p.id);
  // nvcc ignores [[maybe_unused]] on parameters, so such a parameter is left unnamed (its value
  // is never read) and the body gets a local of its name instead, which the attribute does quiet.
  const dynamic = f.shared.filter((a) => a.type.kind === "dynamicShared");
  const lengths = dynamic.map((a) => `unsigned int ${lengthName(a, scope)}`);
  const params = [
    ...f.params.map((p) => (flattened(p) ? leafParams(p as ValueVar, scope) : unreadScalar(p) ? `${tn(p.type as ValueType)} /* ${scope.name(p)}: set, never read */` : paramText(p, f.kind, scope))),
    ...lengths,
  ].join(", ");
  const unreadLocals = f.params.filter(unreadScalar).map((p) => line(`${CUDA.indent}${CUDA.maybeUnused} ${tn(p.type)} ${scope.name(p)}{};`, mc.loc(p.span)));
  const assembled = f.params.filter((p): p is ValueVar => flattened(p)).map((p) => {
    const unused = read.has(p.id) ? "" : `${CUDA.maybeUnused} `;
    return line(`${CUDA.indent}${unused}${tn(p.type)} ${scope.name(p)} = ${fromLeaves(p.type, leafNames(p, scope), scope)};`, mc.loc(p.span));
  });
  const name = functionName(f.name);
  // Inlined, so that nvcc knows the memory that shared, reference and view parameters point at
  // (its atomics differ between global and shared memory).
  const takesShared = f.params.some((p) => p.type.kind === "array" || p.type.kind === "view" || (p.kind === "valueVar" && p.ref));
  const head =
    f.kind === "kernel"
      ? `${CUDA.kernelQualifier} ${kernelBounds(f)}void ${name}(${params})`
      : `${mc.called.has(f.name) ? "" : `${CUDA.maybeUnused} `}${CUDA.deviceFnQualifier}${takesShared ? ` ${CUDA.forceInline}` : ""} ${f.returnType.kind === "void" ? "void" : tn(f.returnType)} ${name}(${params})`;

  // Fixed-size shared arrays past nvcc's static limit lie in the dynamic region (liftedSharedLayout).
  const lifted = liftedSharedLayout(f, CUDA_TARGET.limits);
  const shared = f.shared.flatMap((a) => {
    if (a.type.kind !== "array") return [];
    const unused = read.has(a.id) ? "" : `${CUDA.maybeUnused} `;
    const dims = a.type.dims.map((d) => `[${d}]`).join("");
    const at = lifted?.offsets.get(a.id);
    if (at !== undefined) {
      const t = tn(a.type.elem);
      return [line(`${CUDA.indent}${unused}${t} (&${scope.name(a)})${dims} = *reinterpret_cast<${t} (*)${dims}>(${DYNAMIC_REGION} + ${at}ull);`, mc.loc(a.span))];
    }
    const align = cx.align(a) ? `__align__(${cx.align(a)}) ` : "";
    return [line(`${CUDA.indent}${unused}${CUDA.sharedQualifier} ${align}${tn(a.type.elem)} ${scope.name(a)}${dims};`, mc.loc(a.span))];
  });
  const region = lifted || dynamic.length ? [line(`${CUDA.indent}extern ${CUDA.sharedQualifier} __align__(16) unsigned char ${DYNAMIC_REGION}[];`)] : [];
  const mask = usesWarpMask(f) ? [line(`${CUDA.indent}const unsigned int ${WARP_MASK} = gk_warp_mask();`)] : [];
  return [line(`${head} {`, mc.loc(f.span)), ...unreadLocals, ...assembled, ...region, ...shared, ...dynamicShared(dynamic, lifted?.bytes ?? 0, scope, read, mc), ...mask, ...emitStmts(f.body, cx, 1), line("}")];
}

/** Whether f's body has a warp operation that names the warp's lanes (WARP_MASK, builtins.ts): such a function computes the mask once, at its top. */
function usesWarpMask(f: Function): boolean {
  let uses = false;
  visit(f.body, { expr: (e) => (uses ||= e.kind === "warp" && (CUDA_WARP[e.op].helpers ?? []).includes("gk_warp_mask")) });
  return uses;
}

/** The kernel's dynamic shared memory, as `extern __shared__` declares it. */
const DYNAMIC_REGION = `${CUDA.internalPrefix}dynamic_shared`;

/** The alignment an array's declaration must state for its vector accesses: `bytes` when that exceeds its elements' own, else 0. */
function vectorAlign(a: ArrayVar, bytes: number): number {
  return a.type.kind === "array" && bytes > alignOf(a.type.elem) ? bytes : 0;
}

/** The kernel arguments a vector or struct parameter arrives as: one per scalar, in leaf order. */
function leafNames(p: ValueVar, scope: FunctionScope): string[] {
  const n = leafTypes(p.type).length;
  return Array.from({ length: n }, (_, k) => `${CUDA.internalPrefix}${scope.name(p)}_${k}`);
}

function leafTypes(t: ValueType | ArrayType): ValueType[] {
  switch (t.kind) {
    case "scalar":
      return [t];
    case "vector":
      return Array.from({ length: t.lanes }, () => t.elem);
    case "struct":
      return t.fields.flatMap((f) => leafTypes(f.type));
    case "array":
      return Array.from({ length: elementCount(t) }, () => leafTypes(t.elem)).flat();
  }
}

function leafParams(p: ValueVar, scope: FunctionScope): string {
  const names = leafNames(p, scope);
  return leafTypes(p.type).map((t, k) => `${scope.types.name(t)} ${names[k]}`).join(", ");
}

/** A value of type `t` put together from its scalars, named in leaf order. */
function fromLeaves(t: ValueType, names: readonly string[], scope: FunctionScope): string {
  let k = 0;
  const build = (u: ValueType | ArrayType): string => {
    switch (u.kind) {
      case "scalar":
        return names[k++]!;
      case "vector":
        return `${scope.types.name(u)}{${Array.from({ length: u.lanes }, () => names[k++]!).join(", ")}}`;
      case "struct":
        return `${scope.types.name(u)}{${u.fields.map((f) => build(f.type)).join(", ")}}`;
      case "array": {
        const nest = (level: number): string => `{${Array.from({ length: u.dims[level]! }, () => (level === u.dims.length - 1 ? build(u.elem) : nest(level + 1))).join(", ")}}`;
        return nest(0);
      }
    }
  };
  return build(t);
}

/** `gk_len_buf`: the parameter holding the length of the dynamic shared array `buf`. */
function lengthName(a: ArrayVar, scope: FunctionScope): string {
  return `${CUDA.internalPrefix}len_${scope.name(a)}`;
}

/** A pointer into the dynamic shared region for each dynamic shared array, widest elements first, from byte `start` (after the lifted fixed-size arrays). */
function dynamicShared(arrays: readonly ArrayVar[], start: number, scope: FunctionScope, read: ReadonlySet<number>, mc: ModuleContext): Line[] {
  if (arrays.length === 0) return [];
  const region = DYNAMIC_REGION;
  const sizes = arrays.map((a) => byteSize(a.type.elem));
  const { order } = dynamicSharedLayout(sizes, arrays.map(() => 0));
  const lines: Line[] = [];
  let offset = start > 0 ? ` + ${start}ull` : "";
  for (const i of order) {
    const a = arrays[i]!;
    const unused = read.has(a.id) ? "" : `${CUDA.maybeUnused} `;
    lines.push(line(`${CUDA.indent}${unused}${scope.types.name(a.type.elem)}* ${scope.name(a)} = (${scope.types.name(a.type.elem)}*)(${region}${offset});`, mc.loc(a.span)));
    // The next array starts at a multiple of 16 bytes (limits.ts, dynamicSharedLayout).
    offset += ` + ((${sizes[i]}ull * ${lengthName(a, scope)} + 15ull) & ~15ull)`;
  }
  return lines;
}

function paramText(p: Param, kind: Function["kind"], scope: FunctionScope): string {
  const name = scope.name(p);
  const tn = scope.types.name;
  if (p.kind === "valueVar") return `${tn(p.type)}${p.ref ? "&" : ""} ${name}`;
  const t = p.type;
  invariant(t.kind !== "dynamicShared", `parameter ${p.name} is a dynamic shared array`);
  if (t.kind === "view") return `${CUDA.viewType}<${t.readonly ? "const " : ""}${tn(t.elem)}> ${name}`;
  if (t.kind === "array") {
    // A shared array of the caller's, by reference: indexing reads as in the kernel.
    invariant(t.space === "shared" && kind === "device_fn", `parameter ${p.name} is ${t.space} memory`);
    return `${tn(t.elem)} (&${name})${t.dims.map((n) => `[${n}]`).join("")}`;
  }
  // A kernel's arrays never alias: every launch argument is its own buffer (spec: Types), so
  // the arrays it writes are __restrict__. Besides being true, that steers nvcc 13.0 around
  // ptxas miscompiling loops whose bound is reloaded from one output array while another is
  // stored to. Readonly arrays are plain `const T*`: with `const __restrict__`, nvcc 13.0
  // merged `c ? in[i] : out[j]` into one read-only-cache load and read stale values of `out`
  // (both found by the GPU differential tests). A device function's parameters may alias
  // (f(a, a)), so they get neither.
  const restrict = kind === "kernel" && !t.readonly ? ` ${CUDA.kernelPointer}` : "";
  return `${t.readonly ? "const " : ""}${tn(t.elem)}*${restrict} ${name}`;
}

/** A kernel's `@launchBounds` / `@maxRegisters` as CUDA's qualifier, with a space after it; "" for none. */
function kernelBounds(f: Function): string {
  if (f.launchBounds) return `__launch_bounds__(${f.launchBounds.maxThreads}${f.launchBounds.minBlocks !== undefined ? `, ${f.launchBounds.minBlocks}` : ""}) `;
  if (f.maxRegisters !== undefined) return `__maxnreg__(${f.maxRegisters}) `;
  return "";
}
