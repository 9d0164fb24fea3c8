/**
 * f16 and bf16 arrays on the host. A kernel's `global<f16>` or `global<bf16>` parameter takes
 * a Uint16Array holding the values' bits, and gives one back; these convert between such
 * arrays and numbers. To the half: each value rounded once, to nearest even (overflow to
 * ±Infinity, a NaN to the quiet NaN of its sign); from it: exactly (every f16 and bf16 value
 * is an f32 value).
 */
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits } from "../ir/halves.js";

function toBits(values: ArrayLike<number>, bits: (x: number) => number): Uint16Array {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = bits(values[i]!);
  return out;
}

function fromBits(bits: Uint16Array, value: (b: number) => number): Float32Array {
  if (!(bits instanceof Uint16Array)) throw new TypeError(`expected a Uint16Array of half-precision bits, got ${describe(bits)}`);
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = value(bits[i]!);
  return out;
}

function describe(x: unknown): string {
  return x === null ? "null" : typeof x === "object" ? `a ${(x as object).constructor?.name ?? "object"}` : `a ${typeof x}`;
}

/** The f16 bits of each value (a Float32Array, a Float64Array or plain numbers), for a `global<f16>` parameter. */
export function float32ToF16(values: ArrayLike<number>): Uint16Array {
  return toBits(values, f16Bits);
}

/** The values of f16 bits (a `global<f16>` result), as f32. */
export function f16ToFloat32(bits: Uint16Array): Float32Array {
  return fromBits(bits, fromF16Bits);
}

/** The bf16 bits of each value, for a `global<bf16>` parameter. */
export function float32ToBf16(values: ArrayLike<number>): Uint16Array {
  return toBits(values, bf16Bits);
}

/** The values of bf16 bits (a `global<bf16>` result), as f32. */
export function bf16ToFloat32(bits: Uint16Array): Float32Array {
  return fromBits(bits, fromBf16Bits);
}
