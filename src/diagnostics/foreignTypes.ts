/**
 * Type names from C, CUDA and TypeScript that people write out of habit, and gk's type for
 * each (a hint, for the messages of the parser and the checker): `float` is f32, `number`
 * i32 (what JavaScript's numbers count and index with), f32 or f64. A hint that is one word
 * is a gk scalar type.
 */
export const FOREIGN_TYPES: Readonly<Record<string, string>> = {
  float: "f32", double: "f64", int: "i32", unsigned: "u32", uint: "u32", long: "i64", ulong: "u64", boolean: "bool",
  int32: "i32", uint32: "u32", int64: "i64", uint64: "u64", float32: "f32", float64: "f64",
  int32_t: "i32", uint32_t: "u32", int64_t: "i64", uint64_t: "u64", size_t: "u64",
  int8: "i8", uint8: "u8", int16: "i16", uint16: "u16", int8_t: "i8", uint8_t: "u8", int16_t: "i16", uint16_t: "u16",
  char: "i8", uchar: "u8", short: "i16", ushort: "u16", byte: "u8", half: "f16", __half: "f16", float16: "f16",
  bfloat16: "bf16", __nv_bfloat16: "bf16",
  number: "i32 (a count or an index), f32 or f64", bigint: "i64 or u64",
  // CUDA's and WGSL's vector types.
  ...Object.fromEntries(
    [2, 3, 4].flatMap((n) => [
      [`float${n}`, `f32x${n}`], [`double${n}`, `f64x${n}`], [`int${n}`, `i32x${n}`], [`uint${n}`, `u32x${n}`],
      [`longlong${n}`, `i64x${n}`], [`ulonglong${n}`, `u64x${n}`],
      [`vec${n}f`, `f32x${n}`], [`vec${n}i`, `i32x${n}`], [`vec${n}u`, `u32x${n}`], [`vec${n}`, `f32x${n}`],
    ]),
  ),
};

/** The gk scalar (or vector) type for a foreign type name, where there is exactly one. */
export function foreignScalar(name: string): string | undefined {
  const hint = Object.hasOwn(FOREIGN_TYPES, name) ? FOREIGN_TYPES[name] : undefined;
  return hint && /^\w+$/.test(hint) ? hint : undefined;
}
