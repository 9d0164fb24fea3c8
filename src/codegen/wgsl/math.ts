/**
 * The WGSL column of the builtin table's math functions (src/ir/mathBuiltins.ts, fastMath.ts)
 * and of `select`: WGSL's own builtin where it means gk's, else a helper (helpers.ts), else a
 * formula whose accuracy WGSL states as "inherited" from its parts. Every entry works on a
 * scalar or on a vector lane by lane, as WGSL's builtins and gk's helpers do.
 *
 * WGSL has no function within a bound gk can state for `log1p expm1 cbrt hypot erf erfc`
 * (a formula from exp and log loses the small operands they exist for): the WGSL target
 * lacks them, and legalize refuses them (target.ts, `lacksBuiltins`).
 */
import type { BuiltinExpr } from "../../ir/nodes.js";
import { laneScalar, T, type ValueType } from "../../ir/types.js";
import { invariant } from "../../util.js";
import { atom, valueShape, type Emitted, type ExprContext } from "./expr.js";
import { absI32Helper, copysignHelper, isInfHelper, isNanHelper, minMaxHelper, roundHelper } from "./helpers.js";
import { literal } from "./literals.js";
import { WGSL_LACKS } from "./target.js";

/** gk builtins WGSL spells with its own function of the same meaning (and accuracy, spec/wgsl.md). */
const SAME: Readonly<Record<string, string>> = {
  sqrt: "sqrt", rsqrt: "inverseSqrt", exp: "exp", exp2: "exp2", log: "log", log2: "log2", sin: "sin", cos: "cos", tan: "tan",
  tanh: "tanh", pow: "pow", atan: "atan", atan2: "atan2", asin: "asin", acos: "acos", sinh: "sinh", cosh: "cosh",
  asinh: "asinh", acosh: "acosh", atanh: "atanh", floor: "floor", ceil: "ceil", trunc: "trunc", fma: "fma",
  fastExp: "exp", fastLog: "log", fastLog2: "log2", fastSin: "sin", fastCos: "cos", fastTan: "tan", fastPow: "pow",
};

const LOG10_2 = literal(T.f32, Math.fround(Math.log10(2)));
const LOG2_10 = literal(T.f32, Math.fround(Math.log2(10)));

/** The call for `e` on these operand texts; undefined where only a lane-by-lane helper will do. */
export function builtinCall(e: BuiltinExpr, args: readonly string[], cx: ExprContext): Emitted | undefined {
  const [a, b, c] = args;
  const operandType = e.args[0]!.type as ValueType;
  const lane = laneScalar(operandType);
  invariant(lane !== undefined, `${e.name} of a ${operandType.kind}`);
  const s = valueShape(operandType);
  const float = lane.name === "f32";
  const same = SAME[e.name];
  if (same) return atom(`${same}(${args.join(", ")})`);
  switch (e.name) {
    case "log10":
    case "fastLog10":
      return { text: `log2(${a}) * ${LOG10_2}`, prec: 6 };
    case "fastExp10":
      return atom(`exp2(${a} * ${LOG2_10})`);
    case "fastDiv":
      return { text: `${wrap(a!)} / ${wrap(b!)}`, prec: 6 };
    case "copysign":
      return atom(`${copysignHelper(cx.helpers, s)}(${a}, ${b})`);
    case "round":
      return atom(`${roundHelper(cx.helpers, s)}(${a})`);
    case "isnan":
      return atom(`${isNanHelper(cx.helpers, s)}(${a})`);
    case "isinf":
      return atom(`${isInfHelper(cx.helpers, s)}(${a})`);
    case "abs":
      // Of u32: the value itself, as gk's; of i32 a helper (helpers.ts).
      return atom(lane.name === "i32" ? `${absI32Helper(cx.helpers, s)}(${a})` : `abs(${a})`);
    case "min":
    case "max":
      return atom(float ? `${minMaxHelper(cx.helpers, e.name, s)}(${a}, ${b})` : `${e.name}(${a}, ${b})`);
    case "clamp":
      if (!float) return atom(`min(max(${a}, ${b}), ${c})`);
      return atom(`${minMaxHelper(cx.helpers, "min", s)}(${minMaxHelper(cx.helpers, "max", s)}(${a}, ${b}), ${c})`);
    case "popcount":
      return atom(`${s.of("i32")}(countOneBits(${a}))`);
    case "clz":
      return atom(`${s.of("i32")}(countLeadingZeros(${a}))`);
    case "select": {
      // gk's select(c, a, b) is WGSL's select(b, a, c): both evaluated, lane by lane for a bool vector.
      return atom(`select(${c}, ${b}, ${a})`);
    }
    default:
      invariant(!WGSL_LACKS.has(e.name), `${e.name} reached the WGSL backend (legalize refuses it)`);
      return undefined;
  }
}

/** An operand of `/`: parenthesized unless it is a name, a literal or a call. */
function wrap(x: string): string {
  return /^[A-Za-z0-9_.]+(\(.*\))?$/.test(x) && !x.includes(" ") ? x : `(${x})`;
}
