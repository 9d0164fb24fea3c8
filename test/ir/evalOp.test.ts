import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evalBinary, evalCast, evalUnary, FoldTrap } from "../../src/ir/evalOp.js";
import { jsrt } from "../../src/ir/jsrt.js";
import { T } from "../../src/ir/types.js";

const I32_MIN = -2147483648;

describe("integer semantics", () => {
  it("wraps 32-bit arithmetic", () => {
    expect(evalBinary("add", T.i32, 2147483647, 1)).toBe(I32_MIN);
    expect(evalBinary("mul", T.i32, 65536, 65536)).toBe(0);
    expect(evalBinary("sub", T.u32, 0, 1)).toBe(4294967295);
    expect(evalBinary("mul", T.u32, 4294967295, 4294967295)).toBe(1);
    expect(evalUnary("neg", T.i32, I32_MIN)).toBe(I32_MIN);
    expect(evalUnary("neg", T.u32, 1)).toBe(4294967295);
  });
  it("wraps 64-bit arithmetic exactly", () => {
    expect(evalBinary("add", T.i64, (1n << 63n) - 1n, 1n)).toBe(-(1n << 63n));
    expect(evalBinary("mul", T.u64, 1n << 32n, 1n << 32n)).toBe(0n);
    expect(evalUnary("bitnot", T.u64, 0n)).toBe((1n << 64n) - 1n);
  });
  it("divides toward zero, with INT_MIN / -1 wrapping", () => {
    expect(evalBinary("div", T.i32, -7, 2)).toBe(-3);
    expect(evalBinary("rem", T.i32, -7, 2)).toBe(-1);
    expect(evalBinary("rem", T.i32, 7, -2)).toBe(1);
    expect(evalBinary("div", T.i32, I32_MIN, -1)).toBe(I32_MIN);
    expect(Object.is(evalBinary("rem", T.i32, I32_MIN, -1), 0)).toBe(true);
    expect(evalBinary("div", T.i64, -(1n << 63n), -1n)).toBe(-(1n << 63n));
    expect(evalBinary("div", T.u32, 4294967295, 2)).toBe(2147483647);
  });
  it("traps on division by zero so folding leaves it to run time", () => {
    expect(() => evalBinary("div", T.i32, 1, 0)).toThrow(FoldTrap);
    expect(() => evalBinary("rem", T.u64, 1n, 0n)).toThrow(FoldTrap);
    expect(evalBinary("div", T.f32, 1, 0)).toBe(Infinity);
  });
  it("takes shift counts modulo the bit width", () => {
    expect(evalBinary("shl", T.i32, 1, 33)).toBe(2);
    expect(evalBinary("shr", T.i32, -8, 1)).toBe(-4);
    expect(evalBinary("shr", T.u32, 4294967288, 1)).toBe(2147483644);
    expect(evalBinary("shl", T.i64, 1n, 65n)).toBe(2n);
    expect(evalBinary("shl", T.u64, 1n, 63n)).toBe(1n << 63n);
    expect(evalBinary("shr", T.i64, -8n, 1n)).toBe(-4n);
    expect(evalBinary("shl", T.i32, 1, -1)).toBe(I32_MIN);
  });
  it("matches BigInt reference arithmetic for random 32-bit operands", () => {
    const wrap = (x: bigint) => Number(BigInt.asIntN(32, x));
    fc.assert(
      fc.property(fc.integer({ min: I32_MIN, max: 2147483647 }), fc.integer({ min: I32_MIN, max: 2147483647 }), (a, b) => {
        expect(evalBinary("add", T.i32, a, b)).toBe(wrap(BigInt(a) + BigInt(b)));
        expect(evalBinary("mul", T.i32, a, b)).toBe(wrap(BigInt(a) * BigInt(b)));
        if (b !== 0) expect(evalBinary("div", T.i32, a, b)).toBe(wrap(BigInt(a) / BigInt(b)));
        if (b !== 0) expect(evalBinary("rem", T.i32, a, b)).toBe(wrap(BigInt(a) % BigInt(b)));
      }),
    );
  });
});

describe("float semantics", () => {
  it("rounds f32 after every operation", () => {
    expect(evalBinary("add", T.f32, Math.fround(0.1), Math.fround(0.2))).toBe(Math.fround(Math.fround(0.1) + Math.fround(0.2)));
    expect(evalBinary("add", T.f32, 16777216, 1)).toBe(16777216);
    expect(evalBinary("mul", T.f32, 3.4028234663852886e38, 2)).toBe(Infinity);
  });
  it("keeps NaN, infinities and the sign of zero", () => {
    expect(Object.is(evalUnary("neg", T.f32, 0), -0)).toBe(true);
    expect(Object.is(evalBinary("mul", T.f64, -1, 0), -0)).toBe(true);
    expect(evalBinary("eq", T.f32, NaN, NaN)).toBe(false);
    expect(evalBinary("ne", T.f32, NaN, NaN)).toBe(true);
    expect(evalBinary("eq", T.f32, -0, 0)).toBe(true);
  });
});

describe("casts", () => {
  it("truncate and saturate floats to integers, NaN to 0", () => {
    expect(evalCast(T.f32, T.i32, -2.9)).toBe(-2);
    expect(evalCast(T.f32, T.i32, 3e9)).toBe(2147483647);
    expect(evalCast(T.f32, T.i32, -3e9)).toBe(I32_MIN);
    expect(evalCast(T.f32, T.i32, NaN)).toBe(0);
    expect(evalCast(T.f32, T.u32, -1.5)).toBe(0);
    expect(evalCast(T.f64, T.u32, 1e10)).toBe(4294967295);
    expect(evalCast(T.f64, T.i64, 1e19)).toBe((1n << 63n) - 1n);
    expect(evalCast(T.f64, T.u64, 1e20)).toBe((1n << 64n) - 1n);
    expect(evalCast(T.f64, T.i64, -Infinity)).toBe(-(1n << 63n));
    expect(evalCast(T.f32, T.u64, NaN)).toBe(0n);
  });
  it("wrap integers and extend by sign", () => {
    expect(evalCast(T.i32, T.u32, -1)).toBe(4294967295);
    expect(evalCast(T.u32, T.i32, 4294967295)).toBe(-1);
    expect(evalCast(T.i64, T.i32, (1n << 32n) + 5n)).toBe(5);
    expect(evalCast(T.i32, T.u64, -1)).toBe((1n << 64n) - 1n);
    expect(evalCast(T.u32, T.i64, 4294967295)).toBe(4294967295n);
  });
  it("round integers to floats once, to nearest even", () => {
    expect(evalCast(T.i32, T.f32, 16777217)).toBe(16777216);
    expect(evalCast(T.i32, T.f32, 16777219)).toBe(16777220);
    // 2^60 + 2^36 + 1 lies just above a midpoint of f32: rounding through f64 first would give 2^60.
    expect(evalCast(T.i64, T.f32, (1n << 60n) + (1n << 36n) + 1n)).toBe(Math.fround(2 ** 60 + 2 ** 37));
    expect(evalCast(T.u64, T.f64, (1n << 64n) - 1n)).toBe(2 ** 64);
  });
  it("convert to and from bool", () => {
    expect(evalCast(T.f32, T.bool, NaN)).toBe(true);
    expect(evalCast(T.f32, T.bool, -0)).toBe(false);
    expect(evalCast(T.u64, T.bool, 0n)).toBe(false);
    expect(evalCast(T.bool, T.i64, true)).toBe(1n);
  });
});

/** Exact value of a finite double as a rational n / 2^k, for reference arithmetic. */
function exact(x: number): { n: bigint; k: number } {
  let k = 0;
  while (!Number.isInteger(x)) {
    x *= 2;
    k++;
  }
  return { n: BigInt(x), k };
}

/** The f32 nearest to n / 2^k (ties to even), by brute force over the two candidates around the f64 estimate. */
function roundToF32(n: bigint, k: number): number {
  const approx = Math.fround(Number(n) / 2 ** k);
  const cands = [approx, nextF32(approx, -1), nextF32(approx, 1)].filter(Number.isFinite);
  let best = approx;
  let bestErr: bigint | undefined;
  for (const c of cands) {
    const e = exact(c);
    const K = Math.max(k, e.k);
    const diff = n * 2n ** BigInt(K - k) - e.n * 2n ** BigInt(K - e.k);
    const abs = diff < 0n ? -diff : diff;
    const scaled = abs;
    if (bestErr === undefined || scaled < bestErr || (scaled === bestErr && evenMantissa(c))) {
      bestErr = scaled;
      best = c;
    }
  }
  return best;
}

function nextF32(x: number, dir: number): number {
  const b = new Float32Array([x]);
  const u = new Int32Array(b.buffer);
  if (x === 0) return dir > 0 ? 1.401298464324817e-45 : -1.401298464324817e-45;
  u[0]! += (x > 0) === dir > 0 ? 1 : -1;
  return b[0]!;
}

function evenMantissa(x: number): boolean {
  const u = new Int32Array(new Float32Array([x]).buffer);
  return (u[0]! & 1) === 0;
}

describe("fma", () => {
  it("rounds f32 a*b+c once", () => {
    const f32 = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e10, max: 1e10 });
    fc.assert(
      fc.property(f32, f32, f32, (a, b, c) => {
        const r = jsrt.fmaF32(a, b, c);
        const ea = exact(a), eb = exact(b), ec = exact(c);
        const k = Math.max(ea.k + eb.k, ec.k);
        const n = ea.n * eb.n * 2n ** BigInt(k - ea.k - eb.k) + ec.n * 2n ** BigInt(k - ec.k);
        const want = n === 0n ? 0 : roundToF32(n, k);
        expect(r === want || (r === 0 && want === 0)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
  it("rounds f64 a*b+c once", () => {
    expect(jsrt.fmaF64(0.1, 10, -1)).toBe(5.551115123125783e-17);
    expect(jsrt.fmaF64(1 + 2 ** -52, 1 - 2 ** -52, -1)).toBe(-(2 ** -104));
    expect(jsrt.fmaF64(2, 3, 4)).toBe(10);
    expect(jsrt.fmaF64(Infinity, 0, 1)).toBeNaN();
  });
  it("keeps C's min/max, round and pow rules", () => {
    expect(jsrt.fmin(NaN, 2)).toBe(2);
    expect(Object.is(jsrt.fmin(0, -0), -0)).toBe(true);
    expect(Object.is(jsrt.fmax(-0, 0), 0)).toBe(true);
    expect(jsrt.roundHalfAway(-2.5)).toBe(-3);
    expect(jsrt.roundHalfAway(0.49999999999999994)).toBe(0);
    expect(Object.is(jsrt.roundHalfAway(-0.2), -0)).toBe(true);
    expect(jsrt.pow(1, NaN)).toBe(1);
    expect(jsrt.pow(NaN, 0)).toBe(1);
  });
});

describe("small integers: the exact result wrapped to the width (as C computes in int and converts back)", () => {
  const OPS = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor"] as const;
  /** The reference: exact BigInt arithmetic, division toward zero, shift counts modulo the width, wrapped. */
  function reference(op: (typeof OPS)[number], bits: number, signed: boolean, a: number, b: number): number {
    const wrap = (x: bigint) => Number(signed ? BigInt.asIntN(bits, x) : BigInt.asUintN(bits, x));
    const x = BigInt(a);
    const y = BigInt(b);
    const count = BigInt.asUintN(32, y) % BigInt(bits);
    switch (op) {
      case "add": return wrap(x + y);
      case "sub": return wrap(x - y);
      case "mul": return wrap(x * y);
      case "div": return wrap(x / y);
      case "rem": return wrap(x % y);
      case "shl": return wrap(x << count);
      case "shr": return wrap(x >> count);
      case "and": return wrap(x & y);
      case "or": return wrap(x | y);
      case "xor": return wrap(x ^ y);
    }
  }

  for (const [name, bits, signed] of [["i8", 8, true], ["u8", 8, false], ["i16", 16, true], ["u16", 16, false]] as const) {
    const lo = signed ? -(2 ** (bits - 1)) : 0;
    const hi = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    it(`${name}: every operator ${bits === 8 ? "on every pair of values" : "on random values and the extremes"}`, () => {
      const t = T[name];
      const pairs: [number, number][] = [];
      if (bits === 8) for (let a = lo; a <= hi; a++) for (let b = lo; b <= hi; b++) pairs.push([a, b]);
      else {
        const edge = [lo, lo + 1, -1, 0, 1, 7, 8, 15, 16, 17, hi - 1, hi].filter((v) => v >= lo && v <= hi);
        for (const a of edge) for (const b of edge) pairs.push([a, b]);
        for (const [a, b] of fc.sample(fc.tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: lo, max: hi })), { numRuns: 20000, seed: 7 })) pairs.push([a, b]);
      }
      const bad: string[] = [];
      for (const op of OPS) {
        for (const [a, b] of pairs) {
          if ((op === "div" || op === "rem") && b === 0) continue;
          const got = evalBinary(op, t, a, b);
          if (!Object.is(got, reference(op, bits, signed, a, b))) bad.push(`${a} ${op} ${b} = ${String(got)}`);
        }
        expect(bad.slice(0, 5), `${name} ${op}`).toEqual([]);
      }
      for (const a of [lo, -1, 0, 1, hi].filter((v) => v >= lo)) {
        expect(evalUnary("neg", t, a)).toBe(reference("sub", bits, signed, 0, a));
        expect(evalUnary("bitnot", t, a)).toBe(reference("xor", bits, signed, a, -1));
      }
      expect(() => evalBinary("div", t, 1, 0)).toThrow(FoldTrap);
    });
  }

  it("converts by wrapping to the width, and from floats by truncating and saturating", () => {
    expect(evalCast(T.i32, T.i8, 200)).toBe(-56);
    expect(evalCast(T.i32, T.u8, -1)).toBe(255);
    expect(evalCast(T.u64, T.i16, (1n << 64n) - 1n)).toBe(-1);
    expect(evalCast(T.i8, T.u64, -1)).toBe((1n << 64n) - 1n);
    expect(evalCast(T.i16, T.u32, -2)).toBe(4294967294);
    expect(evalCast(T.u8, T.i8, 255)).toBe(-1);
    expect(evalCast(T.f32, T.i8, 300.5)).toBe(127);
    expect(evalCast(T.f64, T.u16, -1e300)).toBe(0);
    expect(evalCast(T.f32, T.i16, -2.9)).toBe(-2);
    expect(evalCast(T.f32, T.u8, NaN)).toBe(0);
    expect(evalCast(T.i8, T.f16, -128)).toBe(-128);
    expect(evalCast(T.u16, T.f16, 65535)).toBe(Infinity);
    expect(evalCast(T.u16, T.bf16, 65535)).toBe(65536);
    expect(evalCast(T.bool, T.u8, true)).toBe(1);
    expect(evalCast(T.i16, T.bool, -32768)).toBe(true);
  });
});
