/**
 * Arrays of vectors and structs in the simulator, and the values in them. An array is held
 *
 * - of scalars: in the TypedArray of its element type (emitMemory.ts);
 * - of vectors: in the TypedArray of the lane type, each element taking its stored lanes (a
 *   3-lane vector 4), so a `global<f32x4>` is exactly the caller's Float32Array of 4n numbers;
 * - of structs: in a StructMemory (src/ir/jsrt.ts), one buffer with a view per scalar type, a
 *   field of element i at byte i * size + offset.
 *
 * A place in such an array is a byte address (`Addr`: a sum of index terms, each a temporary
 * or a literal times a byte stride, plus a constant), and a scalar of width w at address a is
 * element a / w of its view: every term's stride and the constant are multiples of w, so the
 * division is done on the constants when the code is written. A value is read leaf by leaf into
 * the simulator's representation (arrays, src/ir/composite.ts) and written leaf by leaf, so
 * padding is never read or written.
 */
import type { ArrayVar } from "../../ir/nodes.js";
import { elementCount, leaves, sizeOf, storedLanes, type ArrayType, type ScalarType, type ValueType } from "../../ir/types.js";
import { TYPED_ARRAY } from "../../ir/values.js";
import { invariant } from "../../util.js";
import { arrayName, newTemp, zeroOf, type FnCtx } from "./context.js";

export type Holding = "scalars" | "lanes" | "structs";

/** How an array with elements of type `elem` is held. */
export function holdingOf(elem: ValueType): Holding {
  return elem.kind === "scalar" ? "scalars" : elem.kind === "vector" ? "lanes" : "structs";
}

/** A byte address: the sum of `terms` (code times bytes) and `bytes`. */
export interface Addr {
  readonly terms: readonly { readonly code: string; readonly bytes: number }[];
  readonly bytes: number;
}

export function plus(a: Addr, bytes: number): Addr {
  return { terms: a.terms, bytes: a.bytes + bytes };
}

export function withTerm(a: Addr, code: string, bytes: number): Addr {
  return { terms: [...a.terms, { code, bytes }], bytes: a.bytes };
}

/** The element index, in a view of `width`-byte scalars, of the scalar at `a`. */
export function indexIn(a: Addr, width: number): string {
  const parts = a.terms.map((t) => {
    invariant(t.bytes % width === 0, `a stride of ${t.bytes} bytes for ${width}-byte scalars`);
    const k = t.bytes / width;
    return k === 1 ? t.code : `${t.code} * ${k}`;
  });
  invariant(a.bytes % width === 0, `an offset of ${a.bytes} bytes for ${width}-byte scalars`);
  if (a.bytes !== 0 || parts.length === 0) parts.push(String(a.bytes / width));
  return parts.length === 1 ? parts[0]! : `(${parts.join(" + ")})`;
}

/** What reading and writing an array needs: its names, how it is held, and how unwritten shared memory is reported. */
export interface Mem {
  readonly name: string;
  readonly holding: Holding;
  /** Reads of unwritten elements are checked (shared memory, when the simulator checks it). */
  readonly flagged: boolean;
  /** For the check's report: the access's site and indices. */
  readonly site: number;
  readonly report: string;
}

export function memOf(ctx: FnCtx, a: ArrayVar, flagged: boolean, site: number, report: string): Mem {
  return { name: arrayName(ctx, a), holding: holdingOf(a.type.elem), flagged, site, report };
}

function viewOf(m: Mem, s: ScalarType): string {
  return m.holding === "structs" ? `${m.name}.${s.name}` : m.name;
}

const width = (s: ScalarType) => sizeOf(s);
/** bool lanes are stored as 0/1 and f16/bf16 lanes as their bits (src/ir/halves.ts), as in arrays of scalars (emitMemory.ts). */
function fromStored(s: ScalarType, code: string): string {
  return s.name === "bool" ? `(${code} !== 0)` : s.name === "f16" ? `$.fromF16Bits(${code})` : s.name === "bf16" ? `$.fromBf16Bits(${code})` : code;
}

function toStored(s: ScalarType, code: string): string {
  return s.name === "bool" ? `(${code} ? 1 : 0)` : s.name === "f16" ? `$.f16Bits(${code})` : s.name === "bf16" ? `$.bf16Bits(${code})` : code;
}

/** The sentinel of unwritten shared memory (emitMemory.ts), as a test of `code`. */
function isSentinel(s: ScalarType, code: string, sentinel: string): string {
  return s.name === "f32" || s.name === "f64" ? `${code} !== ${code}` : `${code} === ${sentinel}`;
}

/**
 * Reading one scalar at `a`. Unwritten shared memory: in an array of scalars or lanes, an
 * element holding the sentinel is looked up in the written flags (one per scalar); in an array
 * of structs, the flags are one per byte and every read looks.
 */
export function readScalar(ctx: FnCtx, m: Mem, s: ScalarType, a: Addr, sentinel: (s: ScalarType) => string): string {
  const i = indexIn(a, width(s));
  const read = `${viewOf(m, s)}[${i}]`;
  if (!m.flagged) return fromStored(s, read);
  if (m.holding === "structs") return `(${m.name}$w[${indexIn(a, 1)}] === 0 ? $sim.uninitialized(${m.site}, ${m.report}) : ${fromStored(s, read)})`;
  const v = newTemp(ctx);
  const unwritten = s.name === "bool" ? "false" : `${isSentinel(s, v, sentinel(s))} && ${m.name}$w[${i}] === 0`;
  return `(${v} = ${read}, ${unwritten} ? $sim.uninitialized(${m.site}, ${m.report}) : ${fromStored(s, v)})`;
}

/** Statements writing one scalar (code that may be pasted twice) at `a`, with its written flag. */
export function writeScalar(m: Mem, s: ScalarType, a: Addr, value: string, sentinel: (s: ScalarType) => string): string {
  const i = indexIn(a, width(s));
  const write = `${viewOf(m, s)}[${i}] = ${toStored(s, value)};`;
  if (!m.flagged) return write;
  if (m.holding === "structs") return `${write} ${m.name}$w[${indexIn(a, 1)}] = 1;`;
  // A stored bool is 0 or 1 and a stored f16/bf16 NaN the quiet NaN of its sign: never the sentinel.
  return s.name === "bool" || s.name === "f16" || s.name === "bf16" ? write : `${write} if (${isSentinel(s, value, sentinel(s))}) ${m.name}$w[${i}] = 1;`;
}

/** Array fields of at most this many elements are read and written element by element; larger ones in a loop. */
const UNROLL = 16;

/** An expression reading the value of type `t` at `a`. */
export function readValue(ctx: FnCtx, m: Mem, t: ValueType | ArrayType, a: Addr, sentinel: (s: ScalarType) => string): string {
  switch (t.kind) {
    case "scalar":
      return readScalar(ctx, m, t, a, sentinel);
    case "vector":
      return `[${Array.from({ length: t.lanes }, (_, k) => readScalar(ctx, m, t.elem, plus(a, k * width(t.elem)), sentinel)).join(", ")}]`;
    case "struct":
      return `[${t.fields.map((f) => readValue(ctx, m, f.type, plus(a, f.offset), sentinel)).join(", ")}]`;
    case "array": {
      const n = elementCount(t);
      const size = sizeOf(t.elem);
      if (n <= UNROLL) return `[${Array.from({ length: n }, (_, j) => readValue(ctx, m, t.elem, plus(a, j * size), sentinel)).join(", ")}]`;
      const j = newTemp(ctx);
      return `Array.from({ length: ${n} }, (_, ${j}) => ${readValue(ctx, m, t.elem, withTerm(a, j, size), sentinel)})`;
    }
  }
}

/** Statements writing `value` (a name: it is read once per leaf) of type `t` at `a`, leaf by leaf. */
export function writeValue(ctx: FnCtx, m: Mem, t: ValueType | ArrayType, a: Addr, value: string, sentinel: (s: ScalarType) => string): string[] {
  switch (t.kind) {
    case "scalar":
      return [writeScalar(m, t, a, value, sentinel)];
    case "vector":
      return Array.from({ length: t.lanes }, (_, k) => writeScalar(m, t.elem, plus(a, k * width(t.elem)), `${value}[${k}]`, sentinel));
    case "struct":
      return t.fields.flatMap((f, i) => writeValue(ctx, m, f.type, plus(a, f.offset), `${value}[${i}]`, sentinel));
    case "array": {
      const n = elementCount(t);
      const size = sizeOf(t.elem);
      if (n <= UNROLL) return Array.from({ length: n }, (_, j) => writeValue(ctx, m, t.elem, plus(a, j * size), `${value}[${j}]`, sentinel)).flat();
      const j = newTemp(ctx);
      return [`for (${j} = 0; ${j} < ${n}; ${j}++) { ${writeValue(ctx, m, t.elem, withTerm(a, j, size), `${value}[${j}]`, sentinel).join(" ")} }`];
    }
  }
}

// ---------------------------------------------------------------- allocation

/** Code making the storage of `count` elements of `elem`, zero-filled. */
export function allocate(elem: ValueType, count: number): string {
  switch (holdingOf(elem)) {
    case "scalars":
      return `new ${TYPED_ARRAY[(elem as ScalarType).name].name}(${count})`;
    case "lanes": {
      invariant(elem.kind === "vector", "lanes of a non-vector");
      return `new ${TYPED_ARRAY[elem.elem.name].name}(${count * storedLanes(elem)})`;
    }
    case "structs":
      return `$.structMemory(${count}, ${sizeOf(elem)})`;
  }
}

/** How many written flags an array of `count` elements of `elem` has: one per scalar, or one per byte of structs. */
export function flagCount(elem: ValueType, count: number): number {
  return elem.kind === "scalar" ? count : elem.kind === "vector" ? count * storedLanes(elem) : count * sizeOf(elem);
}

/** Code filling the storage `name` with zeros (for storage reused between calls). */
export function zeroFill(name: string, elem: ValueType): string {
  if (elem.kind === "struct") return `${name}.bytes.fill(0);`;
  return `${name}.fill(${zeroOf(elem.kind === "vector" ? elem.elem : elem)});`;
}

/** Code filling shared storage with the unwritten sentinel (scalars and lanes) or zeros (structs, whose flags are always looked at). */
export function sentinelFill(name: string, elem: ValueType, sentinel: (s: ScalarType) => string): string {
  if (elem.kind === "struct") return `${name}.bytes.fill(0);`;
  return `${name}.fill(${sentinel(elem.kind === "vector" ? elem.elem : elem)});`;
}

/** The number of elements of a global array argument `name`: its length, in elements of `elem`. */
export function globalLength(name: string, elem: ValueType): string {
  return elem.kind === "scalar" ? `${name}.length` : elem.kind === "vector" ? `(${name}.length / ${storedLanes(elem)})` : `${name}.n`;
}

/** The scalars a value of type `t` is made of (for tests of what a type needs). */
export function leafTypes(t: ValueType): ScalarType[] {
  return leaves(t).map((l) => l.type);
}
