/**
 * Vector and struct types in CUDA C++. Every type gk lays out (src/ir/types.ts) is defined so
 * that nvcc lays it out the same way, and a `static_assert` per struct makes nvcc check it:
 *
 *   struct __align__(16) gk_f32x4 { float x, y, z, w; };      // 16 bytes: one 16-byte access
 *   struct __align__(16) gk_f32x3 { float x, y, z; };         // 16 bytes, the last 4 padding
 *   struct Particle { gk_f32x3 pos; float mass; int id; float taps[4]; };
 *   static_assert(sizeof(Particle) == 48 && alignof(Particle) == 16 && __builtin_offsetof(Particle, mass) == 16 ..., "...");
 *
 * gk's own vector types rather than CUDA's `float4` family: CUDA's `float3` is 12 bytes,
 * aligned to 4, and it has no vectors of bool; these follow gk's layout for every lane type.
 * A store of a value that has padding (a 3-lane vector, a struct with gaps) to global memory
 * goes through a `gk_store_T` helper that writes the leaves only, so the padding the host
 * sees is what it put there, as in the simulator.
 */
import type { Module } from "../../ir/nodes.js";
import type { StructType, Type, ValueType, VectorType } from "../../ir/types.js";
import { allVectorTypes, alignOf, isDense, laneName, typeToString } from "../../ir/types.js";
import { pathType } from "../../ir/paths.js";
import { visit } from "../../ir/walk.js";
import { invariant } from "../../util.js";
import { NameTable } from "./names.js";
import { CUDA } from "./settings.js";

/** C++ names of a module's types and of their fields. */
export class TypeNames {
  private readonly structs = new Map<StructType, { name: string; fields: string[] }>();
  /** The types whose copy helper the emitted code calls, in the order first called. */
  private readonly copied = new Set<ValueType>();

  /** `taken`: the global names claimed already (functions), which struct names avoid. */
  constructor(structs: readonly StructType[], taken: NameTable) {
    const names = structs.map((t) => taken.claim(t.name));
    structs.forEach((t, i) => {
      // A member may not take a struct's name: its own (C++ forbids it), or another's (a later
      // member's type would then name the member).
      const fields = new NameTable("local", names);
      this.structs.set(t, { name: names[i]!, fields: t.fields.map((f) => fields.claim(f.name)) });
    });
  }

  /** The C++ names of the module's structs, which variables must not take. */
  structNames(): string[] {
    return [...this.structs.values()].map((s) => s.name);
  }

  /** The C++ type of a value. */
  readonly name = (t: ValueType): string => {
    switch (t.kind) {
      case "scalar":
        return CUDA.types[t.name];
      case "vector":
        return vectorName(t);
      case "struct": {
        const s = this.structs.get(t);
        invariant(s, `struct ${t.name} is not in the module`);
        return s.name;
      }
    }
  };

  /** The C++ name of field `i` of a struct. */
  field(t: StructType, i: number): string {
    const s = this.structs.get(t);
    invariant(s, `struct ${t.name} is not in the module`);
    return s.fields[i]!;
  }

  /** The helper that stores a value of a type with padding without writing the padding (storeHelperDefinition). */
  storeHelper(t: ValueType): string {
    return `${CUDA.internalPrefix}store_${t.kind === "vector" ? typeToString(t) : this.name(t)}`;
  }

  /**
   * `gk_copy_T(v)`, which returns v: a comma expression of a vector or struct type as an
   * element of a braced list crashes nvcc 13.0 (a segmentation fault), though it is valid C++;
   * passed through a function it does not. Calling it records that its definition is needed.
   */
  copyHelper(t: ValueType): string {
    this.copied.add(t);
    return `${CUDA.internalPrefix}copy_${t.kind === "vector" ? typeToString(t) : this.name(t)}`;
  }

  /** The definitions of the copy helpers called so far. */
  copyHelperDefinitions(): string[] {
    return [...this.copied].map((t) => `${CUDA.helperQualifier} ${this.name(t)} ${this.copyHelper(t)}(${this.name(t)} v) { return v; }`);
  }

  /** The definition of a struct, and the assertion that nvcc lays it out as gk does. */
  structDefinition(t: StructType): string[] {
    const name = this.name(t);
    const lines = [`struct ${name} {`];
    t.fields.forEach((f, i) => {
      const ft = f.type;
      const dims = ft.kind === "array" ? ft.dims.map((d) => `[${d}]`).join("") : "";
      lines.push(`${CUDA.indent}${this.name(ft.kind === "array" ? ft.elem : ft)} ${this.field(t, i)}${dims};`);
    });
    lines.push("};");
    const offsets = t.fields.map((f, i) => ` && __builtin_offsetof(${name}, ${this.field(t, i)}) == ${f.offset}`).join("");
    lines.push(`static_assert(sizeof(${name}) == ${t.size} && alignof(${name}) == ${t.align}${offsets}, "gk: the layout of ${name}");`);
    return lines;
  }
}

/** `gk_f32x4`: gk's vector types in CUDA. */
export function vectorName(t: VectorType): string {
  return `${CUDA.internalPrefix}${typeToString(t)}`;
}

/** The definition of a vector type: its lanes, aligned to its size (a 3-lane vector takes the room of 4). */
export function vectorDefinition(t: VectorType): string {
  const lanes = Array.from({ length: t.lanes }, (_, k) => laneName(k)).join(", ");
  return `struct __align__(${alignOf(t)}) ${vectorName(t)} { ${CUDA.types[t.elem.name]} ${lanes}; };`;
}

/** The C++ member name of vector lane `k`. */
export function laneMember(k: number): string {
  return laneName(k);
}

/**
 * `gk_store_T(T* p, const T& v)` for a type with padding: writes every leaf of `v` to `*p` and
 * nothing else (the helpers of the types it contains come first).
 */
export function storeHelperDefinition(t: ValueType, names: TypeNames): string {
  invariant(!isDense(t), `a store helper for ${typeToString(t)}, which has no padding`);
  const T = names.name(t);
  const helper = (u: ValueType) => names.storeHelper(u);
  const head = `${CUDA.helperQualifier} void ${helper(t)}(${T}* p, const ${T}& v)`;
  if (t.kind === "vector") {
    return `${head} { ${Array.from({ length: t.lanes }, (_, k) => `p->${laneName(k)} = v.${laneName(k)};`).join(" ")} }`;
  }
  invariant(t.kind === "struct", `padding in a ${t.kind}`);
  const parts = t.fields.map((f, i) => {
    const m = names.field(t, i);
    const ft = f.type;
    if (ft.kind !== "array") return isDense(ft) ? `p->${m} = v.${m};` : `${helper(ft)}(&p->${m}, v.${m});`;
    const idx = ft.dims.map((_, k) => `[i${k}]`).join("");
    const loops = ft.dims.map((d, k) => `for (int i${k} = 0; i${k} < ${d}; i${k}++) `).join("");
    const body = isDense(ft.elem) ? `p->${m}${idx} = v.${m}${idx};` : `${helper(ft.elem)}(&p->${m}${idx}, v.${m}${idx});`;
    return `${loops}${body}`;
  });
  return `${head} { ${parts.join(" ")} }`;
}

/** The vector and struct types inside a type (a struct's fields, an array field's elements), innermost first, and itself. */
export function typesWithin(t: ValueType, out: ValueType[] = []): ValueType[] {
  if (out.includes(t)) return out;
  if (t.kind === "struct") for (const f of t.fields) typesWithin(f.type.kind === "array" ? f.type.elem : f.type, out);
  if (t.kind !== "scalar" && !out.includes(t)) out.push(t);
  return out;
}

/** The vector types a module uses anywhere (values, arrays, structs' fields), in a fixed order. */
export function usedVectorTypes(m: Module): VectorType[] {
  const seen = new Set<VectorType>();
  const add = (t: Type): void => {
    switch (t.kind) {
      case "vector":
        seen.add(t);
        return;
      case "struct":
        for (const f of t.fields) add(f.type);
        return;
      case "array":
      case "global":
        return add(t.elem);
      default:
        return;
    }
  };
  for (const t of m.structs) add(t);
  for (const f of [...m.functions, ...m.kernels]) {
    add(f.returnType);
    for (const p of [...f.params, ...f.shared]) add(p.type);
    visit(f.body, {
      stmt: (st) => (st.kind === "let" ? add(st.var.type) : st.kind === "localArray" ? add(st.array.type) : undefined),
      expr: (e) => add(e.type),
    });
  }
  return allVectorTypes().filter((v) => seen.has(v));
}

/** The types with padding that a module stores into global memory, with those they contain, innermost first. */
export function storedWithPadding(m: Module): ValueType[] {
  const out: ValueType[] = [];
  for (const f of [...m.functions, ...m.kernels]) {
    visit(f.body, {
      stmt: (st) => {
        if (st.kind !== "store" || st.vector !== null || st.array.type.kind !== "global") return;
        const t = pathType(st.array.type.elem, st.path) as ValueType;
        if (!isDense(t)) for (const u of typesWithin(t)) if (!isDense(u) && !out.includes(u)) out.push(u);
      },
    });
  }
  return out;
}
