/**
 * gk's value types as WGSL types, and struct declarations whose layout is gk's.
 *
 *   i32 u32 f32 bool       the same names (legalize refuses every other scalar, target.ts)
 *   f32x3                  vec3<f32>
 *   struct Particle        struct Particle { @size(16) pos: vec3<f32>, mass: f32, ... }
 *
 * gk lays structs out as C does (spec/language.md, Memory layout), WGSL by its own rules: a
 * vec3 takes 12 bytes there (16 in gk), so a field after it would move. Every field of a
 * struct that can be in a buffer gets `@size(n)`, n the room gk gives it (up to the next
 * field, or the struct's end), where that differs from its WGSL size: every gk offset is a
 * multiple of gk's alignment, which is at least WGSL's, so each field then lands at its gk
 * offset and the struct has gk's size. An array of either has the same stride. A struct with
 * a bool in it is never in a buffer (legalize refuses it there) and gets no attributes.
 */
import type { ArrayType, ScalarType, StructType, ValueType } from "../../ir/types.js";
import { invariant } from "../../util.js";

const SCALARS: Readonly<Partial<Record<ScalarType["name"], string>>> = { bool: "bool", i32: "i32", u32: "u32", f32: "f32" };

export function scalarName(t: ScalarType): string {
  const n = SCALARS[t.name];
  invariant(n !== undefined, `${t.name} reached the WGSL backend (legalize refuses it)`);
  return n;
}

/** Struct names, by struct type. */
export type StructNames = ReadonlyMap<StructType, string>;

export function typeName(t: ValueType | ArrayType, structs: StructNames): string {
  switch (t.kind) {
    case "scalar":
      return scalarName(t);
    case "vector":
      return `vec${t.lanes}<${scalarName(t.elem)}>`;
    case "struct": {
      const n = structs.get(t);
      invariant(n !== undefined, `struct ${t.name} has no WGSL name`);
      return n;
    }
    case "array":
      return t.dims.reduceRight((inner, d) => `array<${inner}, ${d}>`, typeName(t.elem, structs));
  }
}

/** The same shape (scalar, or vector of as many lanes) of another scalar type: `vec3<u32>` for `vec3<f32>`. */
export function sameShape(t: ValueType, elem: "u32" | "i32" | "f32" | "bool"): string {
  if (t.kind === "scalar") return elem;
  invariant(t.kind === "vector", `shape of a ${t.kind}`);
  return `vec${t.lanes}<${elem}>`;
}

/** WGSL's size of a type that can be in a buffer (after the @size attributes of structs: gk's). */
function wgslSize(t: ValueType | ArrayType): number {
  switch (t.kind) {
    case "scalar":
      return 4;
    case "vector":
      return t.lanes === 3 ? 12 : 4 * t.lanes;
    case "struct":
      return t.size;
    case "array": {
      const stride = t.elem.kind === "vector" && t.elem.lanes === 3 ? 16 : wgslSize(t.elem);
      return t.dims.reduce((a, d) => a * d, stride);
    }
  }
}

export function holdsBool(t: ValueType | ArrayType): boolean {
  switch (t.kind) {
    case "scalar":
      return t.name === "bool";
    case "vector":
      return t.elem.name === "bool";
    case "struct":
      return t.fields.some((f) => holdsBool(f.type));
    case "array":
      return holdsBool(t.elem);
  }
}

/** `struct Name { ... }`, its fields at gk's offsets (see the file comment); `fieldNames` by field number. */
export function structDefinition(t: StructType, name: string, fieldNames: readonly string[], structs: StructNames): string[] {
  const sized = !holdsBool(t);
  const fields = t.fields.map((f, i) => {
    const room = (i + 1 < t.fields.length ? t.fields[i + 1]!.offset : t.size) - f.offset;
    const attr = sized && room !== wgslSize(f.type) ? `@size(${room}) ` : "";
    return `  ${attr}${fieldNames[i]}: ${typeName(f.type, structs)},`;
  });
  return [`struct ${name} {`, ...fields, "}"];
}
