/**
 * bitcast's meaning (src/ir/bitcast.ts), the one the simulator and constant folding run: bits
 * go through unchanged, lane 0 lowest (little endian), every pattern a round trip, NaNs with
 * their payloads. A reference here reads and writes the bytes with a DataView.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evalBitcast, isBitcastType, valueBits, type BitcastType } from "../../src/ir/bitcast.js";
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits } from "../../src/ir/halves.js";
import { allVectorTypes, SCALAR_NAMES, scalarType, T, typeToString, vectorType } from "../../src/ir/types.js";
import type { Value } from "../../src/ir/composite.js";

const TYPES: BitcastType[] = [...SCALAR_NAMES.map(scalarType), ...allVectorTypes()].filter(isBitcastType);

/** The value of type `t` whose bytes are `bytes` (little endian), read with a DataView. */
function fromBytes(t: BitcastType, bytes: Uint8Array): Value {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lane = t.kind === "scalar" ? t : t.elem;
  const w = valueBits(lane) / 8;
  const read = (o: number): Value => {
    switch (lane.name) {
      case "i8": return dv.getInt8(o);
      case "u8": return dv.getUint8(o);
      case "i16": return dv.getInt16(o, true);
      case "u16": return dv.getUint16(o, true);
      case "f16": return fromF16Bits(dv.getUint16(o, true));
      case "bf16": return fromBf16Bits(dv.getUint16(o, true));
      case "i32": return dv.getInt32(o, true);
      case "u32": return dv.getUint32(o, true);
      case "f32": return dv.getFloat32(o, true);
      case "i64": return dv.getBigInt64(o, true);
      case "u64": return dv.getBigUint64(o, true);
      case "f64": return dv.getFloat64(o, true);
      default: throw new Error(lane.name);
    }
  };
  if (t.kind === "scalar") return read(0);
  // A loop, not Array.from: V8's Array.from makes every NaN it stores the canonical one.
  const lanes: Value[] = [];
  for (let k = 0; k < t.lanes; k++) lanes.push(read(k * w));
  return lanes;
}

/** The bits of a 16-bit lane, or the value itself: what must come back unchanged. */
function bitsOf(t: BitcastType, v: Value): unknown {
  const lane = t.kind === "scalar" ? t : t.elem;
  const one = (x: Value) => (lane.name === "f16" ? f16Bits(x as number) : lane.name === "bf16" ? bf16Bits(x as number) : typeof x === "number" && Number.isNaN(x) ? "NaN" : x);
  return t.kind === "scalar" ? one(v) : (v as Value[]).map(one);
}

/**
 * Bytes the simulator holds exactly as values of `from` and of `to`: their f32 and f64 NaNs
 * quiet (the simulator quiets a signaling one it holds as a number), and no NaN at all in a
 * lane of a vector, whose payload a JavaScript engine may replace by the canonical NaN's when
 * it stores it in an array (language.md, "Bit reinterpretation").
 */
function held(raw: Uint8Array, from: BitcastType, to: BitcastType): Uint8Array {
  const out = raw.slice();
  const dv = new DataView(out.buffer);
  const vector = from.kind === "vector" || to.kind === "vector";
  const each = (width: number, top: number, exp: number, quiet: number) => {
    for (let o = 0; o + width <= out.length; o += width) {
      const w = width === 2 ? dv.getUint16(o, true) : dv.getUint32(o + top, true);
      if ((w & exp) !== exp) continue;
      const x = vector ? w & ~(exp & -exp) : w | quiet; // vectors: clear the exponent's lowest bit; scalars: set the quiet bit
      if (width === 2) dv.setUint16(o, x, true);
      else dv.setUint32(o + top, x >>> 0, true);
    }
  };
  const lanes = [from, to].map((t) => (t.kind === "scalar" ? t : t.elem).name);
  if (lanes.includes("f64")) each(8, 4, 0x7ff00000, 0x00080000);
  if (lanes.includes("f32")) each(4, 0, 0x7f800000, 0x00400000);
  if (vector && lanes.includes("f16")) each(2, 0, 0x7c00, 0);
  if (vector && lanes.includes("bf16")) each(2, 0, 0x7f80, 0);
  return out;
}

describe("bitcast", () => {
  it("reads the operand's bytes as the result type, lane 0 lowest, for every pair of one size", () => {
    for (const from of TYPES) {
      for (const to of TYPES) {
        if (valueBits(from) !== valueBits(to)) continue;
        const n = valueBits(from) / 8;
        fc.assert(
          fc.property(fc.uint8Array({ minLength: n, maxLength: n }), (raw) => {
            const bytes = held(raw, from, to);
            const got = evalBitcast(from, to, fromBytes(from, bytes));
            expect(bitsOf(to, got), `${typeToString(from)} -> ${typeToString(to)}`).toEqual(bitsOf(to, fromBytes(to, bytes)));
          }),
          { numRuns: 40 },
        );
      }
    }
  });

  it("gives back every 16-bit pattern through f16 and bf16, signaling NaNs included", () => {
    for (let b = 0; b < 0x10000; b++) {
      expect(evalBitcast(T.f16, T.u16, evalBitcast(T.u16, T.f16, b))).toBe(b);
      expect(evalBitcast(T.bf16, T.u16, evalBitcast(T.u16, T.bf16, b))).toBe(b);
      expect(f16Bits(evalBitcast(T.bf16, T.f16, fromBf16Bits(b)) as number)).toBe(b);
    }
  });

  it("keeps a quiet NaN's payload through f32 and f64; puts lane 0 lowest", () => {
    for (const b of [0x7fc00001, 0xffc12345, 0x7fffffff]) expect(evalBitcast(T.f32, T.u32, evalBitcast(T.u32, T.f32, b))).toBe(b);
    expect(evalBitcast(T.f64, T.u64, evalBitcast(T.u64, T.f64, 0xfff8000000000abcn))).toBe(0xfff8000000000abcn);
    expect(bitsOf(vectorType(T.f16, 2), evalBitcast(T.u32, vectorType(T.f16, 2), 0xc0003c01))).toEqual([0x3c01, 0xc000]);
  });
});
