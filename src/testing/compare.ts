/**
 * Comparing two runs' arrays element by element, under the rules of spec/differential.md:
 * integers and bools bit for bit; floats bit for bit except that every NaN equals every
 * NaN, or, with a tolerance, within `ulp` units in the last place or `abs` (and then -0
 * equals +0). f16 and bf16 arrays hold bits (Uint16Array): their elements are compared as
 * the floats those bits are.
 */
import { bf16Bits, f16Bits, fromBf16Bits, fromF16Bits } from "../ir/halves.js";
import { isFloat, leaves, sizeOf, storedLanes, T, type FloatName, type ScalarName, type ValueType } from "../ir/types.js";
import { newTypedArray, type AnyTypedArray } from "../ir/values.js";
import { readScalar } from "../ir/composite.js";
import { pathOfLeaf } from "./leafNames.js";

export interface Tolerance {
  /** Largest distance in units in the last place (adjacent floats are 1 apart; so are MAX and Infinity). */
  readonly ulp?: number;
  /** Largest absolute difference. */
  readonly abs?: number;
}

export interface ElementDiff {
  readonly index: number;
  readonly cpu: number | bigint;
  readonly gpu: number | bigint;
  /** Distance in ulp, for floats. */
  readonly ulps?: bigint;
}

export interface ArrayComparison {
  readonly name: string;
  readonly elem: ScalarName;
  readonly length: number;
  readonly tolerance: Tolerance | undefined;
  /** How many elements differ. */
  readonly mismatches: number;
  /** The first few that differ, in index order. */
  readonly first: readonly ElementDiff[];
  /** How an element is named in a report (default `name[index]`): `pts[3].pos.y` for the leaves of an array of structs. */
  readonly at?: (index: number) => string;
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const f64Bits = new BigUint64Array(f64.buffer);

/** The raw bits of a value of type `elem` as an array holds it (f16 and bf16: their bits already), as an unsigned bigint. */
export function bitsOf(elem: ScalarName, v: number | bigint): bigint {
  switch (elem) {
    case "f16":
    case "bf16":
    case "u8":
    case "u16":
      return BigInt(v);
    case "i8":
      return BigInt.asUintN(8, BigInt(v));
    case "i16":
      return BigInt.asUintN(16, BigInt(v));
    case "f32":
      f32[0] = v as number;
      return BigInt(f32Bits[0]!);
    case "f64":
      f64[0] = v as number;
      return f64Bits[0]!;
    case "bool":
      return BigInt(v) & 0xffn;
    case "i32":
    case "u32":
      return BigInt.asUintN(32, BigInt(v));
    case "i64":
    case "u64":
      return BigInt.asUintN(64, BigInt(v));
  }
}

/** `0x3fc00000`: the bits in hex, zero-padded to the type's width. */
export function hexBits(elem: ScalarName, v: number | bigint): string {
  return `0x${bitsOf(elem, v).toString(16).padStart(bitWidthOf(elem) / 4, "0")}`;
}

function bitWidthOf(elem: ScalarName): number {
  return elem === "bool" ? 8 : ({ i8: 8, u8: 8, i16: 16, u16: 16, f16: 16, bf16: 16, i32: 32, u32: 32, f32: 32, i64: 64, u64: 64, f64: 64 } as const)[elem];
}

const isFloatElem = (elem: ScalarName): elem is FloatName => isFloat(T[elem]);

/** An array element as the number it stands for: f16 and bf16 bits decoded, others as they are. */
export function elementValue(elem: ScalarName, stored: number | bigint): number | bigint {
  if (elem === "f16") return fromF16Bits(stored as number);
  if (elem === "bf16") return fromBf16Bits(stored as number);
  return stored;
}

/** A value as text: `-0`, `NaN`, `1.5`, `-7`. */
export function valueText(v: number | bigint | boolean): string {
  if (typeof v === "number" && Object.is(v, -0)) return "-0";
  return String(v);
}

/** Distance between two non-NaN floats (values, not bits) in ulp: how many representable values lie between, +1 (±0 are 0 apart). */
export function ulpDistance(elem: FloatName, a: number, b: number): bigint {
  const ordered = (v: number) => {
    const bits = floatBits(elem, v);
    const sign = 1n << BigInt(bitWidthOf(elem) - 1);
    return bits & sign ? -(bits & (sign - 1n)) : bits;
  };
  const d = ordered(a) - ordered(b);
  return d < 0n ? -d : d;
}

/** The bits of a float value of type `elem`. */
function floatBits(elem: FloatName, v: number): bigint {
  if (elem === "f16") return BigInt(f16Bits(v));
  if (elem === "bf16") return BigInt(bf16Bits(v));
  return bitsOf(elem, v);
}

/** Whether two elements (as arrays hold them) count as the same under the rules above. */
export function sameElement(elem: ScalarName, a: number | bigint, b: number | bigint, tol?: Tolerance): boolean {
  if (!isFloatElem(elem)) return a === b;
  const x = elementValue(elem, a) as number;
  const y = elementValue(elem, b) as number;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!tol) return Object.is(x, y);
  if (x === y) return true;
  if (tol.abs !== undefined && Math.abs(x - y) <= tol.abs) return true;
  return tol.ulp !== undefined && ulpDistance(elem, x, y) <= BigInt(Math.floor(tol.ulp));
}

const SHOWN = 8;

export function compareArrays(name: string, elem: ScalarName, cpu: AnyTypedArray, gpu: AnyTypedArray, tol?: Tolerance): ArrayComparison {
  const first: ElementDiff[] = [];
  let mismatches = Math.abs(cpu.length - gpu.length);
  const n = Math.min(cpu.length, gpu.length);
  for (let i = 0; i < n; i++) {
    const a = cpu[i]!;
    const b = gpu[i]!;
    if (sameElement(elem, a, b, tol)) continue;
    mismatches++;
    if (first.length < SHOWN) {
      const x = elementValue(elem, a);
      const y = elementValue(elem, b);
      const float = isFloatElem(elem) && !Number.isNaN(x) && !Number.isNaN(y);
      first.push({ index: i, cpu: a, gpu: b, ...(float ? { ulps: ulpDistance(elem, x as number, y as number) } : {}) });
    }
  }
  return { name, elem, length: cpu.length, tolerance: tol, mismatches, first };
}

/** `out[12]: cpu 1.5 (0x3fc00000), gpu 1.5000001 (0x3fc00001), 1 ulp apart` lines for one array. */
export function describeMismatches(c: ArrayComparison, labels: readonly [string, string] = ["cpu", "gpu"]): string[] {
  if (c.mismatches === 0) return [];
  const tol = c.tolerance ? ` (tolerance ${toleranceText(c.tolerance)})` : " (compared bit for bit)";
  const lines = [`${c.name}: ${c.mismatches} of ${c.length} elements differ${tol}`];
  for (const d of c.first) {
    const ulps = d.ulps !== undefined ? `, ${d.ulps} ulp apart` : "";
    lines.push(
      `  ${c.at ? c.at(d.index) : `${c.name}[${d.index}]`}: ${labels[0]} ${valueText(elementValue(c.elem, d.cpu))} (${hexBits(c.elem, d.cpu)}), ${labels[1]} ${valueText(elementValue(c.elem, d.gpu))} (${hexBits(c.elem, d.gpu)})${ulps}`,
    );
  }
  if (c.mismatches > c.first.length) lines.push(`  ... and ${c.mismatches - c.first.length} more`);
  return lines;
}

export function toleranceText(t: Tolerance): string {
  return [t.ulp !== undefined ? `${t.ulp} ulp` : "", t.abs !== undefined ? `abs ${t.abs}` : ""].filter(Boolean).join(" or ") || "-0 = +0";
}

/** An array as text for a report: values (with float bits where they matter), long arrays cut short. */
export function arrayText(elem: ScalarName, a: AnyTypedArray, max = 16): string {
  const shown = Array.from(a.slice(0, max) as ArrayLike<number | bigint>, (stored) => {
    const v = elementValue(elem, stored);
    const text = valueText(v);
    const float = isFloatElem(elem);
    return float && (Number.isNaN(v) || !Number.isFinite(v as number) || Object.is(v, -0) || text.length > 10 || elem === "f16" || elem === "bf16")
      ? `${text} (${hexBits(elem, stored)})`
      : text;
  });
  return `[${shown.join(", ")}${a.length > max ? `, ... (${a.length} elements)` : ""}]`;
}

/**
 * Compares two arrays of any element type (as src/ir/values.ts checkArrayArg holds them): an
 * array of scalars as compareArrays does; an array of vectors or structs leaf by leaf, padding
 * left out, one comparison per scalar type of its leaves, each mismatch named by its element
 * and path (`pts[3].pos.y`).
 */
export function compareValues(name: string, elem: ValueType, cpu: AnyTypedArray, gpu: AnyTypedArray, tol?: Tolerance): ArrayComparison[] {
  if (elem.kind === "scalar") return [compareArrays(name, elem.name, cpu, gpu, tol)];
  const a = leafColumns(elem, cpu);
  const b = leafColumns(elem, gpu);
  const paths = leaves(elem).map((_, k) => pathOfLeaf(elem, k));
  return [...a.keys()].map((s) => {
    const x = a.get(s)!;
    const y = b.get(s) ?? { values: newTypedArray(s, 0), leaves: x.leaves };
    // Entry i of a column is leaf leaves[i % per] of element i / per.
    const per = x.leaves.length;
    const at = (i: number) => `${name}[${Math.floor(i / per)}]${paths[x.leaves[i % per]!]}`;
    return { ...compareArrays(`${name} (${s} leaves)`, s, x.values, y.values, tol), at };
  });
}

/** The leaves of every element of an array of vectors or structs, by scalar type: their values, and which leaves of an element (indices into `leaves(elem)`) a column holds. */
function leafColumns(elem: ValueType, a: AnyTypedArray): Map<ScalarName, { values: AnyTypedArray; leaves: number[] }> {
  const ls = leaves(elem);
  const stride = elem.kind === "vector" ? storedLanes(elem) * sizeOf(elem.elem) : sizeOf(elem);
  const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
  const n = Math.floor(a.byteLength / stride);
  const out = new Map<ScalarName, { values: AnyTypedArray; leaves: number[] }>();
  for (const s of new Set(ls.map((l) => l.type.name))) {
    const which = ls.flatMap((l, k) => (l.type.name === s ? [k] : []));
    const values = newTypedArray(s, n * which.length);
    const xs = values as unknown as (number | bigint)[];
    for (let i = 0; i < n; i++) {
      which.forEach((k, j) => {
        const v = readScalar(ls[k]!.type, view, i * stride + ls[k]!.offset);
        xs[i * which.length + j] = typeof v === "boolean" ? (v ? 1 : 0) : v;
      });
    }
    out.set(s, { values, leaves: which });
  }
  return out;
}
