/**
 * The generator's vector and struct types as the compiler's (src/ir/types.ts), and values of
 * every generated type: a value parameter's value (a scalar, or a vector or struct as
 * src/ir/composite.ts holds it), and arrays as kernels take them (src/ir/values.ts): the
 * TypedArray of the elements, of the stored lanes for vectors (3 lanes in 4, the fourth
 * padding), of the bytes for structs, laid out by the compiler's own layout rule.
 */
import fc from "fast-check";
import { fromLeaves, writeValue, type Value as CompositeValue } from "../../ir/composite.js";
import { leaves, scalarType, sizeOf, storedLanes, structType, vectorType, type ArrayType, type ScalarValue, type StructType, type ValueType } from "../../ir/types.js";
import { newTypedArray, storedValue, type AnyTypedArray } from "../../ir/values.js";
import { isScalarTy, isVecTy, laneOf, lanesOf, type FieldDef, type StructDef, type Ty, type ValTy, type Value, type VecTy } from "./ast.js";
import { toTypedArray } from "./values.js";

/** The compiler's type of a generated type (the structs of the program declared in `structs`). */
export function irType(t: ValTy, structs: readonly StructDef[]): ValueType {
  if (isScalarTy(t)) return scalarType(t);
  if (isVecTy(t)) return vectorType(scalarType(laneOf(t)), lanesOf(t));
  const def = structs.find((s) => s.name === t);
  if (!def) throw new Error(`internal error: no struct ${t} in the generated program`);
  return irStruct(def, structs);
}

function irStruct(def: StructDef, structs: readonly StructDef[]): StructType {
  return structType(def.name, def.fields.map((f) => ({ name: f.name, type: fieldType(f, structs) })));
}

/** A field's type: its value type, or the array of it. */
export function fieldType(f: FieldDef, structs: readonly StructDef[]): ValueType | ArrayType {
  const t = irType(f.t, structs);
  return f.dims.length ? { kind: "array", elem: t, dims: f.dims, space: "local" } : t;
}

/** Bytes a value of type t takes in memory. */
export function sizeOfTy(t: ValTy, structs: readonly StructDef[]): number {
  return sizeOf(irType(t, structs));
}

/** A value of type t, each scalar in it drawn from `scalar`. */
export function compositeValue(t: ValTy, structs: readonly StructDef[], scalar: (u: Ty) => fc.Arbitrary<Value>): fc.Arbitrary<CompositeValue> {
  if (isScalarTy(t)) return scalar(t);
  const ir = irType(t, structs);
  const ls = leaves(ir).map((l) => l.type);
  return fc.tuple(...ls.map((l) => scalar(l.name))).map((xs) => fromLeaves(ir, xs as ScalarValue[]));
}

/** An array of n elements of type t as a kernel takes it, every scalar drawn from `scalar`. */
export function arrayValue(t: ValTy, structs: readonly StructDef[], n: number, scalar: (u: Ty) => fc.Arbitrary<Value>): fc.Arbitrary<AnyTypedArray> {
  if (isScalarTy(t)) return fc.array(scalar(t), { minLength: n, maxLength: n }).map((vs) => toTypedArray(t, vs));
  return fc.array(compositeValue(t, structs, scalar), { minLength: n, maxLength: n }).map((vs) => packArray(t, structs, vs));
}

/** An array of n copies of a value whose every scalar is `leaf(type)` (made anew for every use: arrays are mutable). */
export function filledArray(t: ValTy, structs: readonly StructDef[], n: number, leaf: (u: Ty) => Value): fc.Arbitrary<AnyTypedArray> {
  return fc.constant(null).map(() => {
    if (isScalarTy(t)) return fill(newTypedArray(t, n), storedValue(t, leaf(t)));
    const ir = irType(t, structs);
    const one = packArray(t, structs, [fromLeaves(ir, leaves(ir).map((l) => leaf(l.type.name)))]);
    const out = ir.kind === "vector" ? newTypedArray(laneOf(t as VecTy), n * one.length) : new Uint8Array(n * one.length);
    for (let i = 0; i < n; i++) (out as unknown as { set(x: unknown, at: number): void }).set(one, i * one.length);
    return out;
  });
}

function fill(a: AnyTypedArray, v: number | bigint): AnyTypedArray {
  (a as unknown as { fill(x: unknown): void }).fill(v);
  return a;
}

/** Vectors or structs as the array a kernel takes: the stored lanes (padding lanes zero), or the bytes (padding bytes zero). */
function packArray(t: ValTy, structs: readonly StructDef[], vs: readonly CompositeValue[]): AnyTypedArray {
  const ir = irType(t, structs);
  if (ir.kind === "vector") {
    const per = storedLanes(ir);
    const a = newTypedArray(laneOf(t as VecTy), vs.length * per);
    const out = a as unknown as Value[];
    const lane = laneOf(t as VecTy);
    vs.forEach((v, i) => (v as readonly Value[]).forEach((x, k) => (out[i * per + k] = storedValue(lane, x as ScalarValue) as Value)));
    return a;
  }
  const size = sizeOf(ir);
  const bytes = new Uint8Array(vs.length * size);
  const view = new DataView(bytes.buffer);
  vs.forEach((v, i) => writeValue(ir, view, i * size, v));
  return bytes;
}
