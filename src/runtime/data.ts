/**
 * Launch data made real: the `ArrayData` of a host-side `launch` statement (`[..]`,
 * `zeros`, `fill`, `iota`, `rand`) becomes the TypedArray of its element type (Uint8Array
 * holding 0/1 for bool, Uint16Array holding the bits of f16 and bf16), of its lane type for
 * vectors (stored lanes: the padding lane of a 3-lane vector is 0), or the bytes of an array
 * of structs (src/ir/values.ts, checkArrayArg). The simulator and the GPU path both use this,
 * so a launch sees the same inputs wherever it runs. `iota(n)` wraps in a small integer type
 * and rounds in f16 and bf16, as a conversion of the index would. For vectors, `iota` and
 * `rand` give the lanes of the elements in turn the values they would give a flat array of
 * that many scalars (n f32x4 from iota: 0, 1, 2, 3 | 4, 5, 6, 7 ...).
 *
 * `rand(n, seed, lo, hi)` is deterministic and defined here, bit for bit:
 *
 *   mix(x)  = the "lowbias32" hash on u32 x:
 *               x ^= x >>> 16; x = x * 0x7feb352d (mod 2^32);
 *               x ^= x >>> 15; x = x * 0x846ca68b (mod 2^32);
 *               x ^= x >>> 16
 *   u(k)    = mix((mix(seed) + k * 0x9e3779b9) mod 2^32)      for element k = 0, 1, 2, ...
 *
 *   floats:    v = lo + (hi - lo) * (u(k) >>> 8) / 2^24, computed in f64, then rounded to the
 *              element type; a result below lo becomes the smallest value of the type not
 *              below lo, then a result not below hi becomes the largest value of the type
 *              below hi. Default range [0, 1).
 *   integers:  v = lo + floor(u(k) * (hi - lo) / 2^32), computed exactly, then wrapped to
 *              the element type (so at most 2^32 distinct values however wide the range).
 *   bool:      u(k) & 1.
 *
 * Each element depends only on (seed, k), so any element can be computed on its own.
 */
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits, roundBf16, roundF16 } from "../ir/halves.js";
import type { ArrayData } from "../ir/nodes.js";
import { sizeOf, storedLanes, type FloatName, type ScalarName, type ScalarType, type ScalarValue, type ValueType } from "../ir/types.js";
import { newTypedArray, storedValue, type AnyTypedArray } from "../ir/values.js";
import { writeValue, type Value } from "../ir/composite.js";
import { invariant } from "../util.js";

/** The array argument holding `data` as elements of type `elem`. */
export function materialize(elem: ValueType, data: ArrayData): AnyTypedArray {
  switch (elem.kind) {
    case "scalar":
      return materializeScalars(elem, data);
    case "vector": {
      const per = storedLanes(elem);
      const n = data.kind === "values" ? data.values.length : data.length;
      if (data.kind === "iota" || data.kind === "rand") {
        // The lanes in turn, as a flat array of n × lanes scalars would hold them.
        const flat = materializeScalars(elem.elem, { ...data, length: n * elem.lanes });
        if (per === elem.lanes) return flat;
        const out = newTypedArray(elem.elem.name, n * per);
        for (let i = 0; i < n; i++) for (let k = 0; k < elem.lanes; k++) (out as Float32Array)[i * per + k] = (flat as Float32Array)[i * elem.lanes + k]!;
        return out;
      }
      const out = newTypedArray(elem.elem.name, n * per);
      const put = (i: number, v: Value) => (v as readonly ScalarValue[]).forEach((x, k) => setElement(out, elem.elem.name, i * per + k, x));
      if (data.kind === "values") data.values.forEach((v, i) => put(i, v));
      else if (data.kind === "fill") for (let i = 0; i < n; i++) put(i, data.value);
      return out;
    }
    case "struct": {
      const n = data.kind === "values" ? data.values.length : data.length;
      const out = new Uint8Array(n * sizeOf(elem));
      const view = new DataView(out.buffer);
      invariant(data.kind === "values" || data.kind === "fill" || data.kind === "zeros", `${data.kind}() of structs reached the materializer`);
      if (data.kind === "values") data.values.forEach((v, i) => writeValue(elem, view, i * elem.size, v));
      else if (data.kind === "fill") for (let i = 0; i < n; i++) writeValue(elem, view, i * elem.size, data.value);
      return out;
    }
  }
}

/** The TypedArray holding `data` as scalars of type `elem`. */
function materializeScalars(elem: ScalarType, data: ArrayData): AnyTypedArray {
  switch (data.kind) {
    case "values": {
      const out = newTypedArray(elem.name, data.values.length);
      data.values.forEach((v, i) => setElement(out, elem.name, i, v as ScalarValue));
      return out;
    }
    case "zeros":
      return newTypedArray(elem.name, data.length);
    case "fill": {
      const out = newTypedArray(elem.name, data.length);
      if (data.length > 0) {
        setElement(out, elem.name, 0, data.value as ScalarValue);
        (out as { fill(v: number | bigint): unknown }).fill(out[0]!);
      }
      return out;
    }
    case "iota": {
      invariant(elem.name !== "bool", "iota() of bool reached the materializer");
      const out = newTypedArray(elem.name, data.length);
      for (let i = 0; i < data.length; i++) setElement(out, elem.name, i, elem.name === "i64" || elem.name === "u64" ? BigInt(i) : i);
      return out;
    }
    case "rand":
      return randArray(elem.name, data.length, data.seed, data.lo, data.hi);
  }
}

/** Stores a scalar value (boolean, bigint or number as the IR carries it) into element `i` (the TypedArray wraps integers). */
function setElement(out: AnyTypedArray, elem: ScalarName, i: number, v: ScalarValue): void {
  switch (elem) {
    case "bool":
      out[i] = v === true || v === 1 || v === 1n ? 1 : 0;
      return;
    case "i64":
    case "u64":
      (out as BigInt64Array | BigUint64Array)[i] = typeof v === "bigint" ? v : BigInt(Number(v));
      return;
    case "f16":
    case "bf16":
      (out as Uint16Array)[i] = storedValue(elem, Number(v)) as number;
      return;
    default:
      (out as Float32Array)[i] = typeof v === "boolean" ? (v ? 1 : 0) : Number(v);
  }
}

// ---------------------------------------------------------------- the generator behind rand()

/** The lowbias32 integer hash (Chris Wellons' hash-prospector), a bijection on u32. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The k-th 32-bit draw of rand() for a seed (see the comment at the top of this file). */
export function randU32(seed: number, k: number): number {
  return mix32((mix32(seed >>> 0) + Math.imul(k, 0x9e3779b9)) >>> 0);
}

const TWO24 = 16777216;

function randArray(elem: ScalarName, n: number, seed: number, lo: number, hi: number): AnyTypedArray {
  const out = newTypedArray(elem, n);
  switch (elem) {
    case "bool":
      for (let k = 0; k < n; k++) out[k] = randU32(seed, k) & 1;
      return out;
    case "f16":
    case "bf16":
    case "f32":
    case "f64": {
      const round = FLOAT[elem].round;
      const bottom = lowestNotBelow(lo, elem);
      const top = highestBelow(hi, elem);
      for (let k = 0; k < n; k++) {
        let v = round(lo + ((hi - lo) * (randU32(seed, k) >>> 8)) / TWO24);
        if (v < lo) v = bottom;
        if (v >= hi) v = top;
        setElement(out, elem, k, v);
      }
      return out;
    }
    default: {
      // Exact either way: u * (hi - lo) < 2^53 fits an f64 when the range is at most 2^21 wide.
      const exactInF64 = hi - lo <= 2 ** 21 && Number.isSafeInteger(lo) && Number.isSafeInteger(hi);
      const base = BigInt(lo);
      const span = BigInt(hi) - base;
      const big = elem === "i64" || elem === "u64";
      for (let k = 0; k < n; k++) {
        const u = randU32(seed, k);
        if (exactInF64 && !big) {
          (out as Int32Array | Uint32Array)[k] = lo + Math.floor((u * (hi - lo)) / 4294967296);
          continue;
        }
        const v = exactInF64 ? BigInt(lo + Math.floor((u * (hi - lo)) / 4294967296)) : base + ((BigInt(u) * span) >> 32n);
        // Storing into the TypedArray wraps to the element type.
        if (big) (out as BigInt64Array | BigUint64Array)[k] = v;
        else (out as Int32Array | Uint32Array)[k] = Number(BigInt.asIntN(32, v));
      }
      return out;
    }
  }
}

const f64buf = new Float64Array(1);
const f64bits = new BigInt64Array(f64buf.buffer);
const f32buf = new Float32Array(1);
const f32bits = new Int32Array(f32buf.buffer);

/** Each float type: rounding to it, and its values as ordered integers (its bits, as a sign and magnitude). */
const FLOAT: Record<FloatName, { round: (x: number) => number; next: (x: number, up: boolean) => number }> = {
  f16: { round: roundF16, next: (x, up) => fromF16Bits(f16Bits(x) + (up ? 1 : -1)) },
  bf16: { round: roundBf16, next: (x, up) => fromBf16Bits(bf16Bits(x) + (up ? 1 : -1)) },
  f32: {
    round: Math.fround,
    next: (x, up) => {
      f32buf[0] = x;
      f32bits[0] = f32bits[0]! + (up ? 1 : -1);
      return f32buf[0];
    },
  },
  f64: {
    round: (x) => x,
    next: (x, up) => {
      f64buf[0] = x;
      f64bits[0] = f64bits[0]! + (up ? 1n : -1n);
      return f64buf[0];
    },
  },
};

/** The next representable value of the type below (dir -1) or above (dir +1) a finite x. */
function step(x: number, elem: FloatName, dir: 1 | -1): number {
  // From zero: the smallest subnormal of the sign (the bits 1, or 1 with the sign bit set).
  if (x === 0) return dir * Math.abs(FLOAT[elem].next(0, true));
  return FLOAT[elem].next(x, x > 0 === dir > 0);
}

/** The largest value of the type below hi. */
function highestBelow(hi: number, elem: FloatName): number {
  const r = FLOAT[elem].round(hi);
  return r < hi ? r : step(r, elem, -1);
}

/** The smallest value of the type not below lo. */
function lowestNotBelow(lo: number, elem: FloatName): number {
  const r = FLOAT[elem].round(lo);
  return r >= lo ? r : step(r, elem, 1);
}
