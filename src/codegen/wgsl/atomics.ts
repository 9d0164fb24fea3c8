/**
 * Atomics and vector accesses, each a call of WGSL's atomic builtin or of a helper made for
 * the one module-scope array it works on (WGSL functions take no pointer into a storage or
 * workgroup array, without a language extension; specialize.ts makes every array a module
 * variable, so a helper can name it):
 *
 *   i32, u32: add sub min max and or xor exch    atomicAdd(&hist[i], v) ... (add and sub wrap)
 *   i32, u32, f32: cas                           a compare-exchange loop that fails only when the
 *                                                element differs (WGSL's is weak: it may fail
 *                                                spuriously), bit for bit for f32
 *   f32: add sub min max                         a compare-exchange loop on the element's bits,
 *                                                exact (in global memory add and sub flush
 *                                                subnormals, as gk's GPU atomicAdd does)
 *   f32: exch                                    atomicExchange on the bits
 *
 * An f32 array that atomics touch holds `atomic<u32>`, the bits of its elements.
 * `load4(x, i)` is `vec4<f32>(x[i], x[i + 1i], x[i + 2i], x[i + 3i])`, the index written
 * once per lane, where its indices are pure and small (`writtenOut`): WGSL's compiler sees
 * the range of an index made of a `for` loop's counter, the thread's index and constants, and
 * Dawn's robustness then leaves it unclamped, where a helper's parameter has no range and each
 * of its indices is clamped (test/codegen/wgsl/robustness.test.ts). Other indices go to a helper
 * made for the array, `gk_load4_x(i)`, which evaluates them once.
 */
import type { AtomicExpr, Expr, LoadExpr } from "../../ir/nodes.js";
import { someExpr } from "../../ir/walk.js";
import { memorySpace, type ScalarType } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { emitExpr, operand, PREC, type ArrayRef, type ExprContext } from "./expr.js";
import { ftzHelper, minMaxHelper, shape } from "./helpers.js";
import { scalarName, typeName } from "./types.js";

const NATIVE: Readonly<Record<string, string>> = {
  add: "atomicAdd", sub: "atomicSub", min: "atomicMin", max: "atomicMax", and: "atomicAnd", or: "atomicOr", xor: "atomicXor", exch: "atomicExchange",
};

/**
 * A helper made for one array and one list of index types (WGSL has no overloading): its
 * name, its parameters before the value ones, the arguments that reach them, and how its body
 * names the array. A module-scope array's helper names the array (`gk_load4_x`); a local
 * array is a `var` of its function, which a helper reaches through a `ptr<function, T>`
 * parameter, so its helper is named after the array's type (`gk_load2_local_5_i32`). Indices
 * other than all i32 tag the name (`gk_load4u_x` takes a u32 index).
 */
function helperFor(op: string, a: ArrayRef, indices: readonly Expr[], indexTexts: readonly string[], cx: ExprContext): { name: string; params: string[]; args: string[]; base: string; subscripts: string } {
  const types = indices.map((ix) => scalarName(ix.type as ScalarType));
  const tag = types.every((t) => t === "i32") ? "" : types.map((t) => t[0]).join("");
  const params = types.map((t, k) => `i${k}: ${t}`);
  const subscripts = types.map((_, k) => `[i${k}]`).join("");
  const args = [...indexTexts];
  if (!a.local) return { name: `gk_${op}${tag}_${a.name}`, params, args, base: a.name, subscripts };
  invariant(a.type.kind === "array" && a.type.elem.kind === "scalar", `helper ${op} on local array ${a.name} of ${a.type.kind}`);
  const type = `${a.type.dims.join("_")}_${scalarName(a.type.elem)}`;
  return { name: `gk_${op}${tag}_local_${type}`, params: [`p: ptr<function, ${typeName(a.type, cx.structs)}>`, ...params], args: [`&${a.name}`, ...args], base: "(*p)", subscripts };
}

export function atomicCall(e: AtomicExpr, cx: ExprContext): string {
  const a = cx.array(e.array);
  invariant(a.atomic, `atomic on ${a.name}, whose elements are not atomic`);
  const elem = e.type;
  // A vector atomic (atomicAdd on f16x2, bf16x2) is of halves, which legalize refuses for WGSL.
  invariant(elem.kind === "scalar", `an atomic on ${a.name}'s vector elements`);
  const indices = e.indices.map((i) => emitExpr(i, cx).text);
  const args = e.args.map((x) => emitExpr(x, cx).text);
  const element = `&${a.name}${indices.map((i) => `[${i}]`).join("")}`;
  if (elem.name !== "f32" && e.op !== "cas") return `${NATIVE[e.op]}(${element}, ${args[0]})`;
  if (elem.name === "f32" && e.op === "exch") return `bitcast<f32>(atomicExchange(${element}, bitcast<u32>(${args[0]})))`;
  const T = scalarName(elem);
  const bits = (x: string) => (elem.name === "f32" ? `bitcast<u32>(${x})` : x);
  const value = (x: string) => (elem.name === "f32" ? `bitcast<f32>(${x})` : x);
  const site = (op: string) => helperFor(op, a, e.indices, indices, cx);
  if (e.op === "cas") {
    const { name, params, args: at, base, subscripts } = site("atomicCAS");
    const ref = `&${base}${subscripts}`;
    cx.helpers.use(name, () => [
      `fn ${name}(${[...params, `compare: ${T}`, `v: ${T}`].join(", ")}) -> ${T} {`,
      "  loop {",
      `    let r = atomicCompareExchangeWeak(${ref}, ${bits("compare")}, ${bits("v")});`,
      `    if (r.exchanged || r.old_value != ${bits("compare")}) { return ${value("r.old_value")}; }`,
      "  }",
      "}",
    ]);
    return `${name}(${[...at, ...args].join(", ")})`;
  }
  const flush = memorySpace(a.type) === "global" && (e.op === "add" || e.op === "sub");
  const ftz = flush ? ftzHelper(cx.helpers) : "";
  const f = (x: string) => (flush ? `${ftz}(${x})` : x);
  const old = "bitcast<f32>(old)";
  const update =
    e.op === "add" ? f(`${f(old)} + ${f("v")}`)
    : e.op === "sub" ? f(`${f(old)} - ${f("v")}`)
    : `${minMaxHelper(cx.helpers, e.op as "min" | "max", shape("f32", null))}(${old}, v)`;
  invariant(["add", "sub", "min", "max"].includes(e.op), `f32 atomic ${e.op}`);
  const { name, params, args: at, base, subscripts } = site(`atomic${e.op[0]!.toUpperCase()}${e.op.slice(1)}`);
  const ref = `&${base}${subscripts}`;
  cx.helpers.use(name, () => [
    `fn ${name}(${[...params, "v: f32"].join(", ")}) -> f32 {`,
    `  var old = atomicLoad(${ref});`,
    "  loop {",
    `    let r = atomicCompareExchangeWeak(${ref}, old, bitcast<u32>(${update}));`,
    `    if (r.exchanged) { return ${old}; }`,
    "    old = r.old_value;",
    "  }",
    "}",
  ]);
  return `${name}(${[...at, ...args].join(", ")})`;
}

/** An element of a (possibly atomic) scalar array, read as its value. */
function elementValue(a: ArrayRef, base: string, subscripts: string): string {
  if (!a.atomic) return `${base}${subscripts}`;
  const v = `atomicLoad(&${base}${subscripts})`;
  return a.type.elem.kind === "scalar" && a.type.elem.name === "f32" ? `bitcast<f32>(${v})` : v;
}

/** Nodes an index written out once per lane may have. */
const WRITTEN_OUT_NODES = 12;

/**
 * Whether a vector access's indices are written out once per lane rather than passed to a
 * helper: each pure (no memory access, call, atomic or warp operation: evaluating it again
 * gives the same value and does nothing else) and small.
 */
export function writtenOut(indices: readonly Expr[]): boolean {
  return indices.every((ix) => {
    let nodes = 0;
    return !someExpr(ix, (x) => ++nodes > WRITTEN_OUT_NODES || ["load", "call", "atomic", "warp"].includes(x.kind));
  });
}

/** The element of lane k of a vector access whose indices are written out: the last index plus k. */
export function laneElement(indices: readonly Expr[], a: ArrayRef, cx: ExprContext): (k: number) => string {
  const texts = indices.map((i) => emitExpr(i, cx));
  const last = indices.length - 1;
  const one = scalarName(indices[last]!.type as ScalarType) === "u32" ? "u" : "i";
  return (k) => `${a.name}${texts.map((t, j) => (j === last && k > 0 ? `[${operand(t, PREC.add)} + ${k}${one}]` : `[${t.text}]`)).join("")}`;
}

/** `load2`/`load4`: the elements at the last index and after it, written out or read by a helper. */
export function vectorLoadCall(e: LoadExpr, a: ArrayRef, cx: ExprContext): string {
  const lanes = e.vector!;
  if (writtenOut(e.indices)) {
    const at = laneElement(e.indices, a, cx);
    return `vec${lanes}<${scalarName(a.type.elem as ScalarType)}>(${Array.from({ length: lanes }, (_, k) => elementValue(a, at(k), "")).join(", ")})`;
  }
  const { name, params, args, base } = helperFor(`load${lanes}`, a, e.indices, e.indices.map((i) => emitExpr(i, cx).text), cx);
  const elem = scalarName(a.type.elem as ScalarType);
  const at = laneSubscripts(e.indices);
  cx.helpers.use(name, () => [
    `fn ${name}(${params.join(", ")}) -> vec${lanes}<${elem}> {`,
    `  return vec${lanes}<${elem}>(${Array.from({ length: lanes }, (_, k) => elementValue(a, base, at(k))).join(", ")});`,
    "}",
  ]);
  return `${name}(${args.join(", ")})`;
}

/** `store2`/`store4`: a helper writing the lanes to the element at the last index and after it. */
export function vectorStoreCall(indices: readonly Expr[], value: string, lanes: 2 | 4, a: ArrayRef, cx: ExprContext): string {
  const { name, params, args, base } = helperFor(`store${lanes}`, a, indices, indices.map((i) => emitExpr(i, cx).text), cx);
  const elem = a.type.elem as ScalarType;
  const at = laneSubscripts(indices);
  const f32 = elem.name === "f32";
  const store = (k: number) => {
    const lane = `v.${"xyzw"[k]}`;
    return a.atomic ? `  atomicStore(&${base}${at(k)}, ${f32 ? `bitcast<u32>(${lane})` : lane});` : `  ${base}${at(k)} = ${lane};`;
  };
  cx.helpers.use(name, () => [`fn ${name}(${[...params, `v: vec${lanes}<${scalarName(elem)}>`].join(", ")}) {`, ...Array.from({ length: lanes }, (_, k) => store(k)), "}"]);
  return `${name}(${[...args, value].join(", ")});`;
}

/** The subscripts of lane k of a vector access: the last index plus k. */
function laneSubscripts(indices: readonly Expr[]): (k: number) => string {
  const last = indices.length - 1;
  const one = scalarName(indices[last]!.type as ScalarType) === "u32" ? "u" : "i";
  return (k) => indices.map((_, j) => (j === last && k > 0 ? `[i${j} + ${k}${one}]` : `[i${j}]`)).join("");
}
