/**
 * Helper functions the generated WGSL calls where WGSL's own operator or builtin is not
 * gk's (spec/wgsl.md gives each difference), written once per type used, and only when used:
 *
 *   gk_div_i32 gk_rem_i32 ...  integer / and %: division by zero yields 0 (WGSL's yields the
 *                              dividend); MIN / -1 is MIN and MIN % -1 is 0 in both
 *   gk_fmod_f32                float %: C's fmod, exact (WGSL's % is x - y * trunc(x / y))
 *   gk_f32_to_i32, ..._u32     truncation that saturates and maps NaN to 0 (WGSL leaves NaN,
 *                              and values out of range, to the implementation)
 *   gk_i32_to_f32, gk_u32_...  rounded once to nearest even (WGSL: either neighbour)
 *   gk_min_f32 gk_max_f32      a NaN operand yields the other; -0 is below +0 (WGSL: either)
 *   gk_isnan_f32 gk_isinf_f32  from the bits, which no compiler may assume away
 *   gk_round_f32               halfway cases away from zero (WGSL's round: to even)
 *   gk_copysign_f32            from the bits
 *   gk_ftz_f32                 a subnormal to zero of its sign (f32 atomicAdd in global memory)
 *   gk_f32_from_bits           Infinity and NaN constants (literals.ts)
 *   gk_opaque_i32, ...         the value itself, through a call (expr.ts: arithmetic of
 *                              constants, which WGSL would evaluate at shader creation)
 *
 * A helper over a vector type works lane by lane and is named after it (`gk_div_vec3_i32`).
 */

/** The helpers a module uses: name → definition lines, in first-use order. */
export class HelperSet {
  private readonly defs = new Map<string, readonly string[]>();

  /** Records `name`'s definition (made once, on first use) and returns the name. */
  use(name: string, define: () => readonly string[]): string {
    if (!this.defs.has(name)) {
      this.defs.set(name, []);
      this.defs.set(name, define());
    }
    return name;
  }

  lines(): string[] {
    const out: string[] = [];
    for (const d of this.defs.values()) out.push("", ...d);
    return out;
  }
}

/** A scalar or vector WGSL type, and how to name and build things of its shape. */
export interface Shape {
  /** `i32`, `vec3<i32>` */
  readonly type: string;
  /** `i32`, `vec3_i32`: the suffix of a helper's name. */
  readonly suffix: string;
  /** The same shape of another scalar type. */
  readonly of: (elem: string) => string;
}

export function shape(elem: string, lanes: number | null): Shape {
  const of = (e: string) => (lanes === null ? e : `vec${lanes}<${e}>`);
  return { type: of(elem), suffix: lanes === null ? elem : `vec${lanes}_${elem}`, of };
}

export function divHelper(h: HelperSet, op: "div" | "rem", s: Shape): string {
  const sym = op === "div" ? "/" : "%";
  return h.use(`gk_${op}_${s.suffix}`, () => [
    `fn gk_${op}_${s.suffix}(a: ${s.type}, b: ${s.type}) -> ${s.type} {`,
    `  return select(a ${sym} b, ${s.type}(0), b == ${s.type}(0));`,
    "}",
  ]);
}

export function fromBitsHelper(h: HelperSet): string {
  return h.use("gk_f32_from_bits", () => ["fn gk_f32_from_bits(b: u32) -> f32 {", "  return bitcast<f32>(b);", "}"]);
}

export function isNanHelper(h: HelperSet, s: Shape): string {
  return h.use(`gk_isnan_${s.suffix}`, () => [
    `fn gk_isnan_${s.suffix}(x: ${s.type}) -> ${s.of("bool")} {`,
    `  return (bitcast<${s.of("u32")}>(x) & ${s.of("u32")}(0x7fffffffu)) > ${s.of("u32")}(0x7f800000u);`,
    "}",
  ]);
}

export function isInfHelper(h: HelperSet, s: Shape): string {
  return h.use(`gk_isinf_${s.suffix}`, () => [
    `fn gk_isinf_${s.suffix}(x: ${s.type}) -> ${s.of("bool")} {`,
    `  return (bitcast<${s.of("u32")}>(x) & ${s.of("u32")}(0x7fffffffu)) == ${s.of("u32")}(0x7f800000u);`,
    "}",
  ]);
}

export function copysignHelper(h: HelperSet, s: Shape): string {
  const u = s.of("u32");
  return h.use(`gk_copysign_${s.suffix}`, () => [
    `fn gk_copysign_${s.suffix}(x: ${s.type}, y: ${s.type}) -> ${s.type} {`,
    `  return bitcast<${s.type}>((bitcast<${u}>(x) & ${u}(0x7fffffffu)) | (bitcast<${u}>(y) & ${u}(0x80000000u)));`,
    "}",
  ]);
}

/**
 * abs of i32 (or an i32 vector): the most negative value is its own absolute value, as in gk,
 * by u32 arithmetic, which wraps by definition. WGSL's `abs` says the same, but it becomes
 * SPIR-V's SAbs, whose value for that operand the H200's Vulkan compiler does not keep (the
 * WebGPU random differential: `max(abs(x), y)` and `clamp(v, abs(x), h)` of x = -2^31 differed).
 */
export function absI32Helper(h: HelperSet, s: Shape): string {
  const u = s.of("u32");
  return h.use(`gk_abs_${s.suffix}`, () => [
    `fn gk_abs_${s.suffix}(x: ${s.type}) -> ${s.type} {`,
    `  let m = bitcast<${u}>(x >> ${u}(31u));`,
    `  return bitcast<${s.type}>((bitcast<${u}>(x) ^ m) - m);`,
    "}",
  ]);
}

/** min or max of floats: a NaN operand yields the other; -0 is below +0. */
export function minMaxHelper(h: HelperSet, op: "min" | "max", s: Shape): string {
  const nan = isNanHelper(h, s);
  const u = s.of("u32");
  // Of two equal values (only ±0 differ then) the one whose sign bit says so; else by comparison.
  const pick = op === "min" ? "a < b" : "a > b";
  const signed = op === "min" ? `(bitcast<${u}>(a) & ${u}(0x80000000u)) != ${u}(0u)` : `(bitcast<${u}>(a) & ${u}(0x80000000u)) == ${u}(0u)`;
  return h.use(`gk_${op}_${s.suffix}`, () => [
    `fn gk_${op}_${s.suffix}(a: ${s.type}, b: ${s.type}) -> ${s.type} {`,
    `  let r = select(select(b, a, ${pick}), select(b, a, ${signed}), a == b);`,
    `  return select(select(r, a, ${nan}(b)), b, ${nan}(a));`,
    "}",
  ]);
}

/** Halfway cases away from zero; exact (x - trunc(x) is). */
export function roundHelper(h: HelperSet, s: Shape): string {
  return h.use(`gk_round_${s.suffix}`, () => [
    `fn gk_round_${s.suffix}(x: ${s.type}) -> ${s.type} {`,
    "  let t = trunc(x);",
    `  return select(t, t + sign(x), abs(x - t) >= ${s.type}(0.5f));`,
    "}",
  ]);
}

/** Float to i32 or u32: truncated, saturating, NaN to 0 (spec/language.md, Conversions). */
export function floatToIntHelper(h: HelperSet, to: "i32" | "u32", s: Shape): string {
  const nan = isNanHelper(h, s);
  const T = s.of(to);
  const lo = to === "i32" ? `${s.type}(-2147483648.0f)` : `${s.type}(0.0f)`;
  const hi = to === "i32" ? `${s.type}(2147483648.0f)` : `${s.type}(4294967296.0f)`;
  const min = to === "i32" ? `${T}(i32(-2147483648))` : `${T}(0u)`;
  const max = to === "i32" ? `${T}(2147483647i)` : `${T}(4294967295u)`;
  // Between lo and hi (hi excluded) the value truncated is in range; ±Infinity saturate too.
  return h.use(`gk_${s.suffix}_to_${to}`, () => [
    `fn gk_${s.suffix}_to_${to}(x: ${s.type}) -> ${T} {`,
    `  let inRange = ${T}(clamp(x, ${lo}, ${s.type}(${to === "i32" ? "2147483520.0f" : "4294967040.0f"})));`,
    `  return select(select(select(inRange, ${max}, x >= ${hi}), ${min}, x <= ${lo}), ${T}(0${to === "i32" ? "i" : "u"}), ${nan}(x));`,
    "}",
  ]);
}

export function ftzHelper(h: HelperSet): string {
  return h.use("gk_ftz_f32", () => [
    "fn gk_ftz_f32(x: f32) -> f32 {",
    "  let b = bitcast<u32>(x);",
    "  return select(x, bitcast<f32>(b & 0x80000000u), (b & 0x7f800000u) == 0u);",
    "}",
  ]);
}

/**
 * C's fmod, exact: the remainder of |x| by |y| by subtracting |y| scaled by powers of two
 * (each subtraction is exact: the two are within a factor of 2), with x's sign.
 */
export function fmodHelper(h: HelperSet): string {
  const nan = isNanHelper(h, shape("f32", null));
  const inf = isInfHelper(h, shape("f32", null));
  const copysign = copysignHelper(h, shape("f32", null));
  const fromBits = fromBitsHelper(h);
  return h.use("gk_fmod_f32", () => [
    "fn gk_fmod_f32(x: f32, y: f32) -> f32 {",
    `  if (${nan}(x) || ${nan}(y) || ${inf}(x) || y == 0.0f) { return ${fromBits}(0x7fc00000u); }`,
    "  let ay = abs(y);",
    `  if (${inf}(y) || abs(x) < ay) { return x; }`,
    "  var r = abs(x);",
    "  let ey = frexp(ay).exp;",
    "  loop {",
    "    if (r < ay) { break; }",
    "    var s = ldexp(ay, frexp(r).exp - ey);",
    "    if (s > r) { s = s * 0.5f; }",
    "    r = r - s;",
    "  }",
    `  return ${copysign}(r, x);`,
    "}",
  ]);
}

/**
 * An i32 or u32 to f32, rounded once to nearest even: its high and low 16 bits are each exact
 * in f32, and so is the high part scaled by 2^16, so the one addition rounds (WGSL lets
 * `f32(x)` round either way; SwiftShader's u32 conversion does, measured in spec/wgsl.md).
 */
export function intToFloatHelper(h: HelperSet, from: "i32" | "u32", s: Shape): string {
  const F = s.of("f32");
  const I = s.of(from);
  const U = s.of("u32");
  const name = `gk_${s.suffix}_to_f32`;
  return h.use(name, () => [
    `fn ${name}(x: ${I}) -> ${F} {`,
    `  return ${F}(x >> ${U}(16u)) * ${F}(65536.0f) + ${F}(x & ${I}(0xffff${from === "i32" ? "i" : "u"}));`,
    "}",
  ]);
}

/**
 * The value itself, through a call, so that what it is used in is no constant expression:
 * WGSL evaluates arithmetic of constants when the shader is created, and there an overflow
 * (`vec3<u32>(2969066407u) << vec3<u32>(3u)`, an i32 sum past 2^31, an f32 product past
 * its range) is an error, where gk's operators wrap (integers) or round (floats).
 */
export function opaqueHelper(h: HelperSet, s: Shape): string {
  return h.use(`gk_opaque_${s.suffix}`, () => [`fn gk_opaque_${s.suffix}(x: ${s.type}) -> ${s.type} {`, "  return x;", "}"]);
}
