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
 * `load4(x, i)` is `gk_load4_x(i)`: the four elements in order, as one vector.
 */
import type { AtomicExpr, Expr, LoadExpr } from "../../ir/nodes.js";
import { memorySpace, type ScalarType } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { emitExpr, type ArrayRef, type ExprContext } from "./expr.js";
import { ftzHelper, minMaxHelper, shape } from "./helpers.js";
import { scalarName } from "./types.js";

const NATIVE: Readonly<Record<string, string>> = {
  add: "atomicAdd", sub: "atomicSub", min: "atomicMin", max: "atomicMax", and: "atomicAnd", or: "atomicOr", xor: "atomicXor", exch: "atomicExchange",
};

/** Index parameters `i0: i32, i1: i32` of a helper, and the subscripts `[i0][i1]` they make. */
function indexParams(indices: readonly Expr[]): { params: string[]; subscripts: string } {
  const params = indices.map((ix, k) => `i${k}: ${scalarName(ix.type as ScalarType)}`);
  return { params, subscripts: indices.map((_, k) => `[i${k}]`).join("") };
}

export function atomicCall(e: AtomicExpr, cx: ExprContext): string {
  const a = cx.array(e.array);
  invariant(a.atomic, `atomic on ${a.name}, whose elements are not atomic`);
  const elem = e.type;
  const indices = e.indices.map((i) => emitExpr(i, cx).text);
  const args = e.args.map((x) => emitExpr(x, cx).text);
  const element = `&${a.name}${indices.map((i) => `[${i}]`).join("")}`;
  if (elem.name !== "f32" && e.op !== "cas") return `${NATIVE[e.op]}(${element}, ${args[0]})`;
  if (elem.name === "f32" && e.op === "exch") return `bitcast<f32>(atomicExchange(${element}, bitcast<u32>(${args[0]})))`;
  const { params, subscripts } = indexParams(e.indices);
  const T = scalarName(elem);
  const bits = (x: string) => (elem.name === "f32" ? `bitcast<u32>(${x})` : x);
  const value = (x: string) => (elem.name === "f32" ? `bitcast<f32>(${x})` : x);
  const ref = `&${a.name}${subscripts}`;
  if (e.op === "cas") {
    const name = `gk_atomicCAS_${a.name}`;
    cx.helpers.use(name, () => [
      `fn ${name}(${[...params, `compare: ${T}`, `v: ${T}`].join(", ")}) -> ${T} {`,
      "  loop {",
      `    let r = atomicCompareExchangeWeak(${ref}, ${bits("compare")}, ${bits("v")});`,
      `    if (r.exchanged || r.old_value != ${bits("compare")}) { return ${value("r.old_value")}; }`,
      "  }",
      "}",
    ]);
    return `${name}(${[...indices, ...args].join(", ")})`;
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
  const name = `gk_atomic${e.op[0]!.toUpperCase()}${e.op.slice(1)}_${a.name}`;
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
  return `${name}(${[...indices, ...args].join(", ")})`;
}

/** An element of a (possibly atomic) scalar array, read as its value. */
function elementValue(a: ArrayRef, subscripts: string): string {
  if (!a.atomic) return `${a.name}${subscripts}`;
  const v = `atomicLoad(&${a.name}${subscripts})`;
  return a.type.elem.kind === "scalar" && a.type.elem.name === "f32" ? `bitcast<f32>(${v})` : v;
}

/** `load2`/`load4`: a helper reading the elements at the last index and after it. */
export function vectorLoadCall(e: LoadExpr, a: ArrayRef, cx: ExprContext): string {
  const lanes = e.vector!;
  const { params } = indexParams(e.indices);
  const last = e.indices.length - 1;
  const elem = a.type.elem as ScalarType;
  const one = scalarName(e.indices[last]!.type as ScalarType) === "u32" ? "u" : "i";
  const at = (k: number) => e.indices.map((_, j) => (j === last ? (k === 0 ? `[i${j}]` : `[i${j} + ${k}${one}]`) : `[i${j}]`)).join("");
  const name = `gk_load${lanes}_${a.name}`;
  cx.helpers.use(name, () => [
    `fn ${name}(${params.join(", ")}) -> vec${lanes}<${scalarName(elem)}> {`,
    `  return vec${lanes}<${scalarName(elem)}>(${Array.from({ length: lanes }, (_, k) => elementValue(a, at(k))).join(", ")});`,
    "}",
  ]);
  return `${name}(${e.indices.map((i) => emitExpr(i, cx).text).join(", ")})`;
}

/** `store2`/`store4`: a helper writing the lanes to the element at the last index and after it. */
export function vectorStoreCall(indices: readonly Expr[], value: string, lanes: 2 | 4, a: ArrayRef, cx: ExprContext): string {
  const { params } = indexParams(indices);
  const last = indices.length - 1;
  const elem = a.type.elem as ScalarType;
  const one = scalarName(indices[last]!.type as ScalarType) === "u32" ? "u" : "i";
  const at = (k: number) => indices.map((_, j) => (j === last ? (k === 0 ? `[i${j}]` : `[i${j} + ${k}${one}]`) : `[i${j}]`)).join("");
  const name = `gk_store${lanes}_${a.name}`;
  const f32 = elem.name === "f32";
  const store = (k: number) => {
    const lane = `v.${"xyzw"[k]}`;
    return a.atomic ? `  atomicStore(&${a.name}${at(k)}, ${f32 ? `bitcast<u32>(${lane})` : lane});` : `  ${a.name}${at(k)} = ${lane};`;
  };
  cx.helpers.use(name, () => [`fn ${name}(${[...params, `v: vec${lanes}<${scalarName(elem)}>`].join(", ")}) {`, ...Array.from({ length: lanes }, (_, k) => store(k)), "}"]);
  return `${name}(${[...indices.map((i) => emitExpr(i, cx).text), value].join(", ")});`;
}
