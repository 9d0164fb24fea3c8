/**
 * The simulator computes exactly what evalOp (constant folding) computes: every operator,
 * cast, math builtin and atomic on every type, bit for bit (NaN equals NaN, -0 is not +0),
 * on random operands; and random expression trees agree with folding, traps included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { atomicBuiltin, builtins, type MathEntry } from "../../../src/ir/builtins.js";
import { fill } from "../../../src/ir/templates.js";
import { compileJs, isComparison, jsBinary, jsUnary } from "../../../src/ir/evalOp.js";
import type { AtomicOp, BinOp, Expr, Stmt, UnOp } from "../../../src/ir/nodes.js";
import { foldExpr } from "../../../src/ir/passes/fold.js";
import { SCALAR_NAMES, T, type ScalarName, type ScalarType, type ScalarValue } from "../../../src/ir/types.js";
import { loadedValue, newTypedArray, storedValue, type AnyTypedArray } from "../../../src/ir/values.js";
import { fromBf16Bits, fromF16Bits } from "../../../src/ir/halves.js";
import { compileKernel, runKernel, SimError } from "../../../src/runtime/sim/index.js";
import { fnDef, gid, globalParam, load, moduleOf, SPAN, store } from "./helpers.js";

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

/** Edge values first, then anything of the type. */
const edges: Record<ScalarName, readonly ScalarValue[]> = {
  bool: [true, false],
  i32: [0, 1, -1, 2, 31, 32, 33, I32_MIN, I32_MAX, -7, 7],
  u32: [0, 1, 2, 31, 32, 33, 0x80000000, 0xffffffff, 7],
  i64: [0n, 1n, -1n, 63n, 64n, 65n, I64_MIN, I64_MAX, -7n, 7n],
  u64: [0n, 1n, 63n, 64n, 65n, 1n << 63n, U64_MAX, 7n],
  f32: [0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, Math.fround(0.1), Math.fround(3.4e38), 1.401298464324817e-45, 2147483648, -2147483904, 4294967296, 2.5, -2.5],
  f64: [0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, 0.1, 1.7976931348623157e308, 5e-324, 9223372036854775808, -9223372036854777856, 2.5, -2.5],
  i8: [0, 1, -1, 7, 8, 9, -128, 127, -7],
  u8: [0, 1, 7, 8, 9, 128, 255],
  i16: [0, 1, -1, 15, 16, 17, -32768, 32767, -7],
  u16: [0, 1, 15, 16, 17, 32768, 65535],
  f16: [0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, 65504, -65504, 2 ** -24, 2 ** -14, 2049 - 1, 0.0999755859375, 2.5, -2.5],
  bf16: [0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, 3.3895313892515355e38, 2 ** -133, 2 ** -126, 256, 2147483648, -9223372036854775808, 2.5, -2.5],
};

/** Every value of a 16-bit float, from its bits. */
const halfBits = (fromBits: (b: number) => number) => fc.integer({ min: 0, max: 0xffff }).map(fromBits);

const any: Record<ScalarName, fc.Arbitrary<ScalarValue>> = {
  bool: fc.boolean(),
  i32: fc.integer({ min: I32_MIN, max: I32_MAX }),
  u32: fc.integer({ min: 0, max: 0xffffffff }),
  i64: fc.bigInt({ min: I64_MIN, max: I64_MAX }),
  u64: fc.bigInt({ min: 0n, max: U64_MAX }),
  f32: fc.float(),
  f64: fc.double(),
  i8: fc.integer({ min: -128, max: 127 }),
  u8: fc.integer({ min: 0, max: 255 }),
  i16: fc.integer({ min: -32768, max: 32767 }),
  u16: fc.integer({ min: 0, max: 65535 }),
  f16: halfBits(fromF16Bits),
  bf16: halfBits(fromBf16Bits),
};

const valueOf = (t: ScalarName): fc.Arbitrary<ScalarValue> => fc.oneof(fc.constantFrom(...edges[t]), any[t]);

function typed(t: ScalarName, values: readonly ScalarValue[]): AnyTypedArray {
  const a = newTypedArray(t, values.length);
  values.forEach((v, i) => ((a as unknown as ScalarValue[])[i] = storedValue(t, v)));
  return a;
}

function element(t: ScalarName, a: AnyTypedArray, i: number): ScalarValue {
  return loadedValue(t, a[i]!);
}

const same = (a: ScalarValue, b: ScalarValue) => (typeof a === "number" && typeof b === "number" ? Object.is(a, b) : a === b);
const show = (v: ScalarValue) => (typeof v === "number" && Object.is(v, -0) ? "-0" : typeof v === "bigint" ? `${v}n` : String(v));
const konst = (t: ScalarType, value: ScalarValue): Expr => ({ kind: "const", type: t, value, span: SPAN });

/**
 * A law per expression shape: `shape(operands)` computed by the simulator on operands loaded
 * from arrays (one thread per element) equals foldExpr on constant operands; where folding
 * leaves a division by zero, the simulator reports GK8003.
 */
function agreesWithFolding(name: string, operandTypes: readonly ScalarType[], result: ScalarType, shape: (ops: Expr[]) => Expr, runs = 40): void {
  const ins = operandTypes.map((t, i) => globalParam(`in${i}`, t, true));
  const out = globalParam("out", result);
  const kernel = fnDef("kernel", "k", [...ins, out], [store(out, gid, shape(ins.map((a) => load(a, gid))))]);
  const sim = compileKernel(moduleOf([kernel]), "k");
  const tuple = fc.tuple(...operandTypes.map((t) => valueOf(t.name)));
  fc.assert(
    fc.property(fc.array(tuple, { minLength: 1, maxLength: 24 }), (rows) => {
      const expected = rows.map((row) => foldExpr(shape(row.map((v, i) => konst(operandTypes[i]!, v)))));
      const args = [...operandTypes.map((t, i) => typed(t.name, rows.map((r) => r[i]!))), newTypedArray(result.name, rows.length)];
      const trapAt = expected.findIndex((e) => e.kind !== "const");
      if (trapAt >= 0) {
        let code = "";
        try {
          runKernel(sim, { grid: [rows.length], block: [1] }, args);
        } catch (e) {
          code = e instanceof SimError ? `${e.code} ${e.diagnostic.message}` : String(e);
        }
        expect(code).toContain(`GK8003`);
        expect(code).toContain(`thread (0,0,0), block (${trapAt},0,0)`);
        return;
      }
      runKernel(sim, { grid: [rows.length], block: [1] }, args);
      rows.forEach((row, i) => {
        const want = (expected[i] as Expr & { kind: "const" }).value;
        const got = element(result.name, args[args.length - 1]!, i);
        if (!same(got, want)) expect.fail(`${name}(${row.map(show).join(", ")}): simulator ${show(got)}, evalOp ${show(want)}`);
      });
    }),
    { numRuns: runs },
  );
}

const BINOPS: readonly BinOp[] = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor", "eq", "ne", "lt", "le", "gt", "ge"];
const UNOPS: readonly UnOp[] = ["neg", "not", "bitnot"];
const types = SCALAR_NAMES.map((n) => T[n]);

describe("operators agree with evalOp", () => {
  for (const t of types) {
    for (const op of BINOPS) {
      if (!jsBinary(op, t)) continue;
      it(`${op} on ${t.name}`, () => {
        const result = isComparison(op) ? T.bool : t;
        agreesWithFolding(`${op}.${t.name}`, [t, t], result, ([a, b]) => ({ kind: "binary", type: result, op, left: a!, right: b!, span: SPAN }));
      });
    }
    for (const op of UNOPS) {
      if (!jsUnary(op, t)) continue;
      it(`${op} on ${t.name}`, () => {
        agreesWithFolding(`${op}.${t.name}`, [t], t, ([a]) => ({ kind: "unary", type: t, op, operand: a!, span: SPAN }));
      });
    }
  }
});

describe("casts agree with evalOp", () => {
  for (const from of types) {
    it(`from ${from.name} to every type`, () => {
      for (const to of types) {
        if (to === from) continue;
        agreesWithFolding(`${to.name}(${from.name})`, [from], to, ([a]) => ({ kind: "cast", type: to, operand: a!, span: SPAN }), 25);
      }
    });
  }
});

describe("math builtins agree with evalOp", () => {
  const math = builtins.filter((b): b is MathEntry => b.rule.kind === "math");
  for (const entry of math) {
    it(entry.name, () => {
      for (const name of Object.keys(entry.js) as ScalarName[]) {
        const t = T[name];
        const result = entry.rule.result === "bool" ? T.bool : entry.rule.result === "i32" ? T.i32 : t;
        const ops = Array<ScalarType>(entry.rule.arity).fill(t);
        agreesWithFolding(`${entry.name}.${name}`, ops, result, (args) => ({ kind: "builtin", type: result, name: entry.name, args, span: SPAN }), 25);
      }
    });
  }
});

describe("atomics", () => {
  const OPS: readonly AtomicOp[] = ["add", "sub", "min", "max", "exch", "cas", "and", "or", "xor"];
  for (const op of OPS) {
    const entry = atomicBuiltin(op);
    it(`${entry.name}: sequential read-modify-write returning the old value, as the table's template`, () => {
      for (const name of entry.rule.types) {
        const t = T[name];
        const arr = globalParam("arr", t);
        const vals = [globalParam("v0", t, true), ...(op === "cas" ? [globalParam("v1", t, true)] : [])];
        const olds = globalParam("olds", t);
        const atomic: Expr = { kind: "atomic", type: t, op, array: arr, indices: [konst(T.i32, 0)], args: vals.map((v) => load(v, gid)), span: SPAN };
        const kernel = fnDef("kernel", "k", [arr, ...vals, olds], [store(olds, gid, atomic)]);
        const sim = compileKernel(moduleOf([kernel]), "k");
        const tpl = entry.js[name]!;
        const step = compileJs(`test-atomic:${op}:${name}`, vals.length + 1, fill(tpl("shared"), ["a", ...["b", "c"].slice(0, vals.length)]));
        // Few distinct values, so that CAS sometimes matches.
        const small = fc.constantFrom(...edges[name].slice(0, 6));
        fc.assert(
          fc.property(small, fc.array(fc.tuple(small, small), { minLength: 1, maxLength: 16 }), (init, rows) => {
            const a = typed(name, [init]);
            const args = [a, ...vals.map((_, j) => typed(name, rows.map((r) => r[j]!))), newTypedArray(name, rows.length)];
            runKernel(sim, { grid: [1], block: [rows.length] }, args);
            const ref = typed(name, [init]);
            rows.forEach((r, i) => {
              const old = element(name, ref, 0);
              expect(same(element(name, args[args.length - 1]!, i), old)).toBe(true);
              (ref as unknown as ScalarValue[])[0] = storedValue(name, step(old, ...r.slice(0, vals.length)));
            });
            expect(same(element(name, a, 0), element(name, ref, 0))).toBe(true);
          }),
          { numRuns: 25 },
        );
      }
    });
  }

  it("compares floats bit for bit in atomicCAS and rounds f32 sums", () => {
    const p = { arr: globalParam("arr", T.f32), cmp: globalParam("cmp", T.f32, true), val: globalParam("val", T.f32, true), olds: globalParam("olds", T.f32) };
    const cas: Expr = { kind: "atomic", type: T.f32, op: "cas", array: p.arr, indices: [konst(T.i32, 0)], args: [load(p.cmp, gid), load(p.val, gid)], span: SPAN };
    const sim = compileKernel(moduleOf([fnDef("kernel", "k", [p.arr, p.cmp, p.val, p.olds], [store(p.olds, gid, cas)])]), "k");
    const arr = new Float32Array([-0]);
    runKernel(sim, { grid: [1], block: [1] }, [arr, new Float32Array([0]), new Float32Array([5]), new Float32Array(1)]);
    expect(Object.is(arr[0], -0)).toBe(true); // +0 does not match -0
    runKernel(sim, { grid: [1], block: [1] }, [arr, new Float32Array([-0]), new Float32Array([5]), new Float32Array(1)]);
    expect(arr[0]).toBe(5);
  });
});

// ---------------------------------------------------------------- random expression trees

const INT_POOL: Record<"i32" | "u32", number[]> = { i32: [0, 1, -1, 3, 7, I32_MIN, I32_MAX], u32: [0, 1, 3, 7, 0x80000000, 0xffffffff] };

/** Builds a typed expression tree from a stream of choices; leaves are constants or loads of input arrays. */
function buildTree(choices: readonly number[], inputs: ReadonlyMap<ScalarName, ReturnType<typeof globalParam>>): (t: ScalarType, depth: number) => Expr {
  let k = 0;
  const pick = (n: number) => choices[k++ % choices.length]! % n;
  const math = builtins.filter((b): b is MathEntry => b.rule.kind === "math");
  const tree = (t: ScalarType, depth: number): Expr => {
    if (depth === 0 || pick(5) === 0) {
      if (pick(3) === 0) {
        const v = t.name === "i32" || t.name === "u32" ? INT_POOL[t.name][pick(INT_POOL[t.name].length)]! : edges[t.name][pick(edges[t.name].length)]!;
        return konst(t, v);
      }
      return load(inputs.get(t.name)!, konst(T.i32, pick(4)));
    }
    const d = depth - 1;
    switch (pick(6)) {
      case 0: {
        const ops = BINOPS.filter((op) => !isComparison(op) && jsBinary(op, t));
        if (!ops.length) break;
        return { kind: "binary", type: t, op: ops[pick(ops.length)]!, left: tree(t, d), right: tree(t, d), span: SPAN };
      }
      case 1: {
        if (t !== T.bool) break;
        const ot = types[pick(types.length)]!;
        const ops = BINOPS.filter((op) => isComparison(op) && jsBinary(op, ot));
        return { kind: "binary", type: T.bool, op: ops[pick(ops.length)]!, left: tree(ot, d), right: tree(ot, d), span: SPAN };
      }
      case 2: {
        const ops = UNOPS.filter((op) => jsUnary(op, t));
        if (!ops.length) break;
        return { kind: "unary", type: t, op: ops[pick(ops.length)]!, operand: tree(t, d), span: SPAN };
      }
      case 3: {
        const from = types[pick(types.length)]!;
        if (from === t) break;
        return { kind: "cast", type: t, operand: tree(from, d), span: SPAN };
      }
      case 4:
        if (t === T.bool && pick(2) === 0) return { kind: "logical", type: T.bool, op: pick(2) ? "and" : "or", left: tree(T.bool, d), right: tree(T.bool, d), span: SPAN };
        return { kind: "select", type: t, cond: tree(T.bool, d), ifTrue: tree(t, d), ifFalse: tree(t, d), span: SPAN };
      case 5: {
        const fits = math.filter((m) => (m.rule.result === "bool" ? t === T.bool : m.rule.result === "i32" ? t === T.i32 : m.js[t.name] !== undefined));
        if (!fits.length) break;
        const m = fits[pick(fits.length)]!;
        const ot = m.rule.result === "bool" ? (pick(2) ? T.f32 : T.f64) : m.rule.result === "i32" ? [T.i32, T.u32, T.i64, T.u64][pick(4)]! : t;
        return { kind: "builtin", type: t, name: m.name, args: Array.from({ length: m.rule.arity }, () => tree(ot, d)), span: SPAN };
      }
    }
    return load(inputs.get(t.name)!, konst(T.i32, pick(4)));
  };
  return tree;
}

describe("random expression trees", () => {
  it("agree with constant folding, and trap where folding leaves a division by zero", () => {
    const inputs = new Map(types.map((t) => [t.name, globalParam(`in_${t.name}`, t, true)] as const));
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
        fc.tuple(...types.map((t) => fc.array(valueOf(t.name), { minLength: 4, maxLength: 4 }))),
        (t, choices, values) => {
          const tree = buildTree(choices, inputs)(t, 4);
          const out = globalParam("out", t);
          const body: Stmt[] = [store(out, konst(T.i32, 0), tree)];
          const sim = compileKernel(moduleOf([fnDef("kernel", "k", [...inputs.values(), out], body)]), "k");
          const arrays = types.map((ty, i) => typed(ty.name, values[i]!));
          const result = newTypedArray(t.name, 1);
          const withConsts = substitute(tree, new Map(types.map((ty, i) => [ty.name, values[i]!])));
          const folded = foldExpr(withConsts);
          if (folded.kind !== "const") {
            expect(() => runKernel(sim, { grid: [1], block: [1] }, [...arrays, result])).toThrow(/GK8003/);
            return;
          }
          runKernel(sim, { grid: [1], block: [1] }, [...arrays, result]);
          const got = element(t.name, result, 0);
          if (!same(got, folded.value)) expect.fail(`simulator ${show(got)}, folding ${show(folded.value)}\n${sim.source}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** The tree with each load of an input replaced by the constant it loads. */
function substitute(e: Expr, values: ReadonlyMap<ScalarName, readonly ScalarValue[]>): Expr {
  const s = (x: Expr) => substitute(x, values);
  switch (e.kind) {
    case "load": {
      const i = (e.indices[0] as Expr & { kind: "const" }).value as number;
      const v = values.get(e.type.name)![i]!;
      return konst(e.type, e.type.name === "f32" ? Math.fround(v as number) : v);
    }
    case "unary":
    case "cast":
      return { ...e, operand: s(e.operand) };
    case "binary":
    case "logical":
      return { ...e, left: s(e.left), right: s(e.right) };
    case "select":
      return { ...e, cond: s(e.cond), ifTrue: s(e.ifTrue), ifFalse: s(e.ifFalse) };
    case "builtin":
      return { ...e, args: e.args.map(s) };
    default:
      return e;
  }
}

describe("exact f32 and integer semantics end to end", () => {
  it("rounds f32 after every operation, not once at the end", () => {
    const [a, b, c, out] = [globalParam("a", T.f32, true), globalParam("b", T.f32, true), globalParam("c", T.f32, true), globalParam("out", T.f32)];
    const mul: Expr = { kind: "binary", type: T.f32, op: "mul", left: load(a, gid), right: load(b, gid), span: SPAN };
    const add: Expr = { kind: "binary", type: T.f32, op: "add", left: mul, right: load(c, gid), span: SPAN };
    const sim = compileKernel(moduleOf([fnDef("kernel", "k", [a, b, c, out], [store(out, gid, add)])]), "k");
    const x = Math.fround(1 + 2 ** -12);
    const r = new Float32Array(1);
    runKernel(sim, { grid: [1], block: [1] }, [new Float32Array([x]), new Float32Array([x]), new Float32Array([-1]), r]);
    // In f64, x*x - 1 = 2^-11 + 2^-24; f32 rounds x*x to 1 + 2^-11 first.
    expect(r[0]).toBe(2 ** -11);
  });
});
