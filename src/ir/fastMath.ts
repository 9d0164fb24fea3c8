/**
 * CUDA's fast intrinsics (`__expf`, `__sinf`, `__fdividef`, ...) as builtins of the table
 * (src/ir/builtins.ts), named `fastExp`, `fastSin`, `fastDiv`, ...: f32 only, one instruction
 * or a few (`ex2.approx`, `sin.approx`, `div.approx`), and less accurate than `exp`, `sin`,
 * `/`. Each states CUDA's documented error bound (CUDA C++ Programming Guide, "Intrinsic
 * Functions") and the regions of operands where the tests compare GPU and simulator within it.
 *
 * The simulator computes the accurate function (rounded once to f32): within the bound of
 * the GPU's result, wherever the bound holds. Where CUDA documents the exact result of an
 * intrinsic outside its bound, the simulator computes that (`fastDiv` for 2^126 < abs(y) < 2^128);
 * elsewhere outside the regions the two may differ by more than the bound.
 *
 * Tolerances add the simulator's own error to CUDA's bound: 1 ulp for ulp bounds, 2^-24 for
 * absolute bounds on results of magnitude at most 1 (half an ulp of 1, rounded up).
 */
import type { FastRegion, MathEntry } from "./builtins.js";
import { call, raw } from "./templates.js";

/** The largest f32 not above π, so that [-PI_F32, PI_F32] is inside [-π, π]. */
export const PI_F32 = 3.1415925025939941;

const F32_ONLY = { scalars: "f32", vectors: false } as const;

function fast(
  name: string,
  arity: 1 | 2,
  js: string,
  bound: string,
  regions: readonly FastRegion[],
  doc: string,
  outside?: string,
): MathEntry {
  return {
    name,
    doc,
    rule: { kind: "math", arity, operands: F32_ONLY, result: "operand" },
    js: { f32: raw((a) => `Math.fround(${js.replace(/\$(\d)/g, (_, k: string) => a[Number(k)]!)})`) },
    // No one bound holds for every operand: `fast` says where one does.
    ulp: { f32: Infinity, f64: Infinity, f16: Infinity, bf16: Infinity },
    fast: { bound, regions, ...(outside && { outside }) },
  };
}

const abs = (log2: number) => ({ abs: 2 ** log2 + 2 ** -24 });
/** Away from [0.5, 2], where the logarithms' bounds are in ulp: positive normal operands. */
const logElsewhere = (ulp: number): FastRegion[] => [
  { operands: [[1e-30, 0.5]], tolerance: { ulp: ulp + 1 } },
  { operands: [[2, 1e30]], tolerance: { ulp: ulp + 1 } },
];

export const fastMathEntries: readonly MathEntry[] = [
  fast("fastExp", 1, "Math.exp($0)", "2 + floor(abs(1.173 x)) ulp", [{ operands: [[-10, 10]], tolerance: { ulp: 14 } }],
    "e raised to x, fast (CUDA __expf: ex2.approx of x * log2(e))."),
  fast("fastExp10", 1, "Math.pow(10, $0)", "2 + floor(abs(2.97 x)) ulp", [{ operands: [[-4, 4]], tolerance: { ulp: 14 } }],
    "10 raised to x, fast (CUDA __exp10f)."),
  fast("fastLog", 1, "Math.log($0)", "2^-21.41 absolute for x in [0.5, 2], otherwise 3 ulp", [{ operands: [[0.5, 2]], tolerance: abs(-21.41) }, ...logElsewhere(3)],
    "Natural logarithm, fast (CUDA __logf: lg2.approx times ln 2)."),
  fast("fastLog2", 1, "Math.log2($0)", "2^-22 absolute for x in [0.5, 2], otherwise 2 ulp", [{ operands: [[0.5, 2]], tolerance: abs(-22) }, ...logElsewhere(2)],
    "Base-2 logarithm, fast (CUDA __log2f: lg2.approx)."),
  fast("fastLog10", 1, "Math.log10($0)", "2^-24 absolute for x in [0.5, 2], otherwise 3 ulp", [{ operands: [[0.5, 2]], tolerance: abs(-24) }, ...logElsewhere(3)],
    "Base-10 logarithm, fast (CUDA __log10f)."),
  fast("fastSin", 1, "Math.sin($0)", "2^-21.41 absolute for x in [-π, π], larger (unspecified) elsewhere", [{ operands: [[-PI_F32, PI_F32]], tolerance: abs(-21.41) }],
    "Sine of x radians, fast (CUDA __sinf: sin.approx); accurate only in [-π, π]."),
  fast("fastCos", 1, "Math.cos($0)", "2^-21.19 absolute for x in [-π, π], larger (unspecified) elsewhere", [{ operands: [[-PI_F32, PI_F32]], tolerance: abs(-21.19) }],
    "Cosine of x radians, fast (CUDA __cosf: cos.approx); accurate only in [-π, π]."),
  fast("fastTan", 1, "Math.tan($0)",
    "CUDA derives it from its implementation, __sinf(x) * (1 / __cosf(x)); from the bounds of those, gk's: 2^-19 absolute for x in [-π/4, π/4]",
    [{ operands: [[-0.78539815, 0.78539815]], tolerance: { abs: 2 ** -19 } }],
    "Tangent of x radians, fast (CUDA __tanf)."),
  fast("fastPow", 2, "$.pow($0, $1)",
    "CUDA derives it from its implementation, exp2f(y * __log2f(x)); from the bounds of those, gk's: 17 ulp for x in [0.5, 2] and y in [-4, 4]",
    [{ operands: [[0.5, 2], [-4, 4]], tolerance: { ulp: 18 } }],
    "x raised to y, fast (CUDA __powf); for positive x."),
  {
    ...fast("fastDiv", 2, "$.fastDivF32($0, $1)", "2 ulp for abs(y) in [2^-126, 2^126]",
      [{ operands: [[-1e30, 1e30], [1e-30, 1e30]], tolerance: { ulp: 3 } }, { operands: [[-1e30, 1e30], [-1e30, -1e-30]], tolerance: { ulp: 3 } }],
      "x / y, fast (CUDA __fdividef: x times an approximate 1/y). For 2^126 < abs(y) < 2^128 it is 0 (NaN for an infinite x), as on the GPU.",
      "for 2^126 < abs(y) < 2^128 a zero signed as x / y would be (NaN when x is infinite or NaN), which is what CUDA documents; for abs(y) below 2^-126 the accurate quotient, where CUDA's is unspecified"),
    js: { f32: call("$.fastDivF32") },
  },
];
