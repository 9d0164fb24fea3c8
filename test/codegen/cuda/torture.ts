/**
 * Modules that exercise everything the backend can emit, built as IR: every operator on
 * every type it is defined for (on variables and on awkward constants), every conversion,
 * every builtin on every type it takes, every atomic on every element type and memory, every
 * index special, every loop form, calls, and the evaluation-order temporaries. nvcc.test.ts
 * compiles them and requires no error and no warning.
 */
import {
  builtins,
  operandTypes,
  type AtomicEntry,
  type IndexEntry,
  type MathEntry,
  type WarpEntry,
} from "../../../src/ir/builtins.js";
import { MATCH_TYPES, SHUFFLE_TYPES } from "../../../src/ir/warpBuiltins.js";
import { jsBinary, jsUnary } from "../../../src/ir/evalOp.js";
import type { AtomicOp, BinOp, Expr, Module, Param, Stmt, UnOp } from "../../../src/ir/nodes.js";
import { isFloat, isInt, isSigned, SCALAR_NAMES, T, scalarType, type ScalarName, type ScalarType, type ScalarValue } from "../../../src/ir/types.js";
import { assign, bin, c, cast, deviceFn, i32, Ids, kernelFn, letS, load, moduleOf, ref, span, store, un } from "./ir.js";

const BIN_OPS: readonly BinOp[] = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor", "eq", "ne", "lt", "le", "gt", "ge"];
const UN_OPS: readonly UnOp[] = ["neg", "not", "bitnot"];

/** Constants that stress literals and the backend's special cases. */
export function awkwardConstants(t: ScalarType): ScalarValue[] {
  switch (t.name) {
    case "bool":
      return [true, false];
    case "i32":
      return [0, 1, -1, 2, -2147483648, 2147483647, 31, 33];
    case "u32":
      return [0, 1, 2, 4294967295, 2147483648, 31, 33];
    case "i64":
      return [0n, 1n, -1n, 2n, -(2n ** 63n), 2n ** 63n - 1n, 63n, 65n];
    case "u64":
      return [0n, 1n, 2n, 2n ** 64n - 1n, 2n ** 63n, 63n, 65n];
    case "f32":
      return [0, -0, 1, 0.5, Math.fround(0.1), -2.5, 3.4028234663852886e38, 1.401298464324817e-45, 1.1754943508222875e-38, NaN, Infinity, -Infinity];
    case "f64":
      return [0, -0, 1, 0.1, -2.5, Number.MAX_VALUE, Number.MIN_VALUE, 2.2250738585072014e-308, NaN, Infinity, -Infinity];
    case "i8":
      return [0, 1, -1, 2, -128, 127, 7, 9];
    case "u8":
      return [0, 1, 2, 255, 128, 7, 9];
    case "i16":
      return [0, 1, -1, 2, -32768, 32767, 15, 17];
    case "u16":
      return [0, 1, 2, 65535, 32768, 15, 17];
    case "f16":
      return [0, -0, 1, 0.5, 0.0999755859375, -2.5, 65504, 2 ** -24, 2 ** -14, NaN, Infinity, -Infinity];
    case "bf16":
      return [0, -0, 1, 0.5, 0.10009765625, -2.5, 3.3895313892515355e38, 2 ** -133, 2 ** -126, NaN, Infinity, -Infinity];
  }
}

/** For each type, a kernel applying every operator to variables and to constants. */
function operators(): Module {
  const kernels = SCALAR_NAMES.map((name) => {
    const t = scalarType(name);
    const ids = new Ids();
    const a = ids.scalar("a", t);
    const b = ids.scalar("b", t);
    const out = ids.global("out", t);
    const flags = ids.global("flags", T.bool);
    const body: Stmt[] = [];
    let k = 0;
    let f = 0;
    const put = (e: Expr) => body.push(e.type === T.bool && t !== T.bool ? store(flags, [i32(f++)], e) : store(out, [i32(k++)], e));
    const operands: [Expr, Expr][] = [[ref(a), ref(b)], ...awkwardConstants(t).flatMap((v): [Expr, Expr][] => [[ref(a), c(t, v)], [c(t, v), ref(b)]])];
    for (const op of BIN_OPS) {
      if (!jsBinary(op, t)) continue;
      for (const [l, r] of operands) put(bin(op, l, r));
    }
    for (const op of UN_OPS) if (jsUnary(op, t)) put(un(op, ref(a)));
    if (isInt(t)) {
      // Nested wrapping arithmetic, and unary minus of a negative constant.
      put(bin("shl", bin("mul", bin("add", ref(a), ref(b)), un("neg", bin("sub", ref(a), ref(b)))), bin("and", ref(b), c(t, typeof awkwardConstants(t)[1] === "bigint" ? 7n : 7))));
    }
    if (isFloat(t)) put(un("neg", c(t, -2.5)));
    if (isSigned(t)) put(un("neg", c(t, typeof awkwardConstants(t)[1] === "bigint" ? -5n : -5)));
    for (const v of awkwardConstants(t)) put(c(t, v));
    return kernelFn(`ops_${name}`, [a, b, out, flags], body);
  });
  return moduleOf(kernels);
}

/** Every conversion between two scalar types, of a variable and of constants. */
function conversions(): Module {
  const ids = new Ids();
  const params: Param[] = [];
  const inputs = new Map<ScalarName, Expr>();
  const outputs = new Map<ScalarName, ReturnType<Ids["global"]>>();
  for (const name of SCALAR_NAMES) {
    const v = ids.scalar(`x_${name}`, scalarType(name));
    params.push(v);
    inputs.set(name, ref(v));
  }
  for (const name of SCALAR_NAMES) {
    const o = ids.global(`out_${name}`, scalarType(name));
    params.push(o);
    outputs.set(name, o);
  }
  const body: Stmt[] = [];
  const counts = new Map<ScalarName, number>();
  for (const from of SCALAR_NAMES) {
    for (const to of SCALAR_NAMES) {
      if (from === to) continue;
      const sources = [inputs.get(from)!, ...awkwardConstants(scalarType(from)).map((v) => c(scalarType(from), v))];
      for (const x of sources) {
        const n = counts.get(to) ?? 0;
        counts.set(to, n + 1);
        body.push(store(outputs.get(to)!, [i32(n)], cast(scalarType(to), x)));
      }
    }
  }
  return moduleOf([kernelFn("conversions", params, body)]);
}

/** Every math builtin on every operand type; every atomic on every type, in global and shared memory; every index special; every warp operation on every type it moves. */
function builtinsModule(): Module {
  const ids = new Ids();
  const params: Param[] = [];
  const xs = new Map<ScalarName, Expr>();
  const globals = new Map<ScalarName, ReturnType<Ids["global"]>>();
  for (const name of SCALAR_NAMES) {
    const x = ids.scalar(`x_${name}`, scalarType(name));
    const g = ids.global(`g_${name}`, scalarType(name));
    params.push(x, g);
    xs.set(name, ref(x));
    globals.set(name, g);
  }
  const shared = SCALAR_NAMES.filter((n) => n !== "bool").flatMap((name) => [
    ids.array(`s1_${name}`, scalarType(name), [8], "shared"),
    ids.array(`s2_${name}`, scalarType(name), [4, 4], "shared"),
  ]);
  const body: Stmt[] = [];
  const slot = new Map<ScalarName, number>();
  const put = (e: Expr) => {
    const t = (e.type as ScalarType).name;
    const n = slot.get(t) ?? 0;
    slot.set(t, n + 1);
    body.push(store(globals.get(t)!, [i32(n)], e));
  };
  for (const b of builtins) {
    if (b.rule.kind === "math") {
      const m = b as MathEntry;
      for (const tn of operandTypes(m.rule)) {
        const t = scalarType(tn);
        const args = Array.from({ length: m.rule.arity }, (_, k) => (k === 0 ? xs.get(tn)! : bin("add", xs.get(tn)!, c(t, tn === "i64" || tn === "u64" ? BigInt(k) : k))));
        put({ kind: "builtin", type: m.rule.result === "bool" ? T.bool : m.rule.result === "i32" ? T.i32 : t, name: m.name, args, span });
      }
    } else if (b.rule.kind === "atomic") {
      const a = b as AtomicEntry;
      for (const tn of a.rule.types) {
        const t = scalarType(tn);
        const x = xs.get(tn)!;
        const args = a.rule.op === "cas" ? [x, x] : [x];
        const op: AtomicOp = a.rule.op;
        const targets = [
          { array: globals.get(tn)!, indices: [i32(0)] },
          { array: shared.find((s) => s.name === `s1_${tn}`)!, indices: [i32(1)] },
          { array: shared.find((s) => s.name === `s2_${tn}`)!, indices: [i32(1), i32(2)] },
        ];
        for (const { array, indices } of targets) {
          const e: Expr = { kind: "atomic", type: t, op, array, indices, args, span };
          body.push({ kind: "expr", expr: e, span });
          put(e);
        }
      }
    } else if (b.rule.kind === "index") {
      const e = b as IndexEntry;
      for (const axis of e.rule.axes ? ([0, 1, 2] as const) : ([0] as const)) {
        put({ kind: "special", type: T.i32, name: e.name, axis, span });
        put(bin("add", { kind: "special", type: T.i32, name: e.name, axis, span }, i32(1)));
      }
    } else if (b.rule.kind === "warp") {
      const w = b as WarpEntry;
      const lane = bin("add", xs.get("i32")!, i32(1));
      if (w.rule.shape === "shuffle") {
        for (const tn of SHUFFLE_TYPES) put({ kind: "warp", type: scalarType(tn), op: w.name, args: [xs.get(tn)!, lane], span });
        put({ kind: "warp", type: T.i32, op: w.name, args: [xs.get("i32")!, i32(33)], span });
      } else if (w.rule.shape === "vote") {
        put({ kind: "warp", type: w.rule.result === "u32" ? T.u32 : T.bool, op: w.name, args: [xs.get("bool")!], span });
      } else if (w.rule.shape === "match") {
        for (const tn of MATCH_TYPES) put({ kind: "warp", type: w.rule.result === "u32" ? T.u32 : T.bool, op: w.name, args: [xs.get(tn)!], span });
      } else if (w.rule.shape === "sync") {
        body.push({ kind: "expr", expr: { kind: "warp", type: T.void, op: w.name, args: [], span }, span });
      }
      // The tensor-core operations (shapes "mma" and "ldmatrix") take fragments, not these
      // scalars: spec/ok/tensor_cores.gk has every one, built by nvcc.test.ts and to a cubin by mma.test.ts.
    } else if (b.rule.kind === "sync") {
      body.push({ kind: "barrier", span });
    } else if (b.rule.kind === "memory") {
      const op = b.rule.op;
      if (op === "fenceBlock" || op === "fenceDevice") {
        body.push({ kind: "fence", scope: op === "fenceBlock" ? "block" : "device", span });
        continue;
      }
      for (const tn of b.rule.types) {
        const targets = [
          { array: globals.get(tn)!, indices: [i32(3)] },
          ...shared.filter((a) => a.name === `s1_${tn}` || a.name === `s2_${tn}`).map((a) => ({ array: a, indices: a.type.kind === "array" && a.type.dims.length === 2 ? [i32(1), i32(2)] : [i32(3)] })),
        ];
        for (const { array, indices } of targets) {
          if (op === "loadAcquire" || op === "loadVolatile") put({ kind: "load", type: scalarType(tn), array, indices, path: [], vector: null, order: op === "loadAcquire" ? "acquire" : "volatile", span });
          else body.push({ ...store(array, indices, xs.get(tn)!), order: op === "storeRelease" ? "release" : "volatile" });
        }
      }
    }
  }
  for (const s of shared) {
    put(s.type.kind === "array" && s.type.dims.length === 2 ? load(s, i32(0), i32(1)) : load(s, i32(2)));
  }
  return moduleOf([kernelFn("everything", params, body, shared)]);
}

/** Loops of every form, branches, blocks, local arrays, calls, shadowing, and evaluation-order temporaries. */
function control(): Module {
  const fids = new Ids();
  const fa = fids.global("a", T.i32);
  const fi = fids.scalar("i", T.i32);
  const bump = deviceFn("bump", [fa, fi], T.i32, [
    store(fa, [ref(fi)], bin("add", load(fa, ref(fi)), i32(1))),
    { kind: "return", value: load(fa, ref(fi)), span },
  ]);
  const gids = new Ids();
  const ga = gids.global("a", T.f32, true);
  const get = deviceFn("get", [ga], T.f32, [{ kind: "return", value: load(ga, i32(0)), span }]);
  const vids = new Ids();
  const nothing = deviceFn("nothing", [], T.void, [{ kind: "return", value: null, span }]);
  const unused = deviceFn("never_called", [vids.scalar("x", T.f64)], T.f64, [{ kind: "return", value: c(T.f64, 1), span }]);

  const ids = new Ids();
  const n = ids.scalar("n", T.i32);
  const a = ids.global("a", T.i32);
  const fx = ids.global("fx", T.f32, true);
  const i = ids.scalar("i", T.i32);
  const j = ids.scalar("j", T.i32);
  const i2 = ids.scalar("i", T.i32);
  const loc = ids.array("loc", T.f32, [2, 3], "local");
  const cube = ids.array("cube", T.i32, [2, 2, 2], "local");
  const zeros = ids.array("zeros", T.bool, [5], "local");
  const call = (k: Expr): Expr => ({ kind: "call", type: T.i32, callee: "bump", args: [{ kind: "arrayArg", array: a, span }, k], span });
  const cont: Stmt = { kind: "continue", span };
  const brk: Stmt = { kind: "break", span };
  const ifS = (cond: Expr, then: Stmt[], els: Stmt[] = []): Stmt => ({ kind: "if", cond, then, else: els, span });
  const loop = (init: Stmt[], cond: Expr | null, step: Stmt[], body: Stmt[], testFirst: boolean): Stmt => ({ kind: "loop", init, cond, step, body, testFirst, span });

  const body: Stmt[] = [
    { kind: "localArray", array: loc, init: [1, 2, 3, 4, 5, 6].map((v) => c(T.f32, v)), span },
    { kind: "localArray", array: cube, init: [0, 1, 2, 3, 4, 5, 6, 7].map(i32), span },
    { kind: "localArray", array: zeros, init: null, span },
    letS(j, i32(0)),
    loop([letS(i, i32(0))], bin("lt", ref(i), ref(n)), [assign(i, bin("add", ref(i), i32(1)))], [ifS(bin("eq", ref(i), i32(2)), [cont]), assign(j, bin("add", ref(j), ref(i)))], true),
    loop([], bin("lt", ref(j), ref(n)), [], [assign(j, bin("mul", ref(j), i32(2))), ifS(bin("gt", ref(j), i32(100)), [brk])], true),
    loop([], bin("gt", ref(j), i32(0)), [], [assign(j, bin("sub", ref(j), i32(3))), ifS(bin("eq", ref(j), i32(7)), [cont])], false),
    loop([], null, [], [brk], true),
    loop([], null, [], [brk], false),
    loop([letS(i2, i32(0))], null, [assign(i2, bin("add", ref(i2), i32(1))), store(a, [ref(i2)], ref(j))], [ifS(bin("lt", ref(i2), i32(3)), [cont]), brk], true),
    loop([assign(j, i32(1))], bin("lt", call(ref(j)), load(a, i32(0))), [store(a, [load(a, i32(1))], call(i32(2)))], [{ kind: "block", body: [ifS(bin("eq", ref(j), i32(4)), [cont], [ifS(bin("eq", ref(j), i32(5)), [brk], [{ kind: "barrier", span }])])], span }], true),
    ifS(bin("lt", bin("add", call(i32(0)), load(a, i32(0))), i32(3)), [store(a, [i32(2)], i32(1))], [ifS(bin("eq", call(i32(1)), load(a, i32(1))), [store(a, [i32(3)], i32(2))])]),
    { kind: "expr", expr: { kind: "call", type: T.void, callee: "nothing", args: [], span }, span },
    store(a, [call(i32(3))], bin("add", call(i32(4)), load(a, i32(4)))),
    store(a, [i32(5)], { kind: "builtin", type: T.i32, name: "max", args: [call(i32(5)), load(a, i32(5))], span }),
    store(a, [i32(6)], { kind: "atomic", type: T.i32, op: "add", array: a, indices: [load(a, i32(6))], args: [call(i32(6))], span }),
    store(a, [i32(7)], cast(T.i32, bin("add", { kind: "call", type: T.f32, callee: "get", args: [{ kind: "arrayArg", array: fx, span }], span }, load(fx, i32(1))))),
    store(a, [i32(8)], { kind: "select", type: T.i32, cond: { kind: "logical", type: T.bool, op: "or", left: bin("lt", ref(n), i32(0)), right: { kind: "logical", type: T.bool, op: "and", left: load(zeros, i32(1)), right: bin("ne", call(i32(7)), i32(0)), span }, span }, ifTrue: call(i32(8)), ifFalse: cast(T.i32, load(loc, i32(1), i32(2))), span }),
    store(a, [i32(9)], load(cube, i32(1), i32(0), i32(1))),
    { kind: "return", value: null, span },
  ];
  return moduleOf([kernelFn("control", [n, a, fx], body)], [bump, get, nothing, unused]);
}

export function tortureModules(): { name: string; module: Module }[] {
  return [
    { name: "torture: operators", module: operators() },
    { name: "torture: conversions", module: conversions() },
    { name: "torture: builtins, atomics, index specials, warp operations", module: builtinsModule() },
    { name: "torture: control flow and evaluation order", module: control() },
  ];
}
