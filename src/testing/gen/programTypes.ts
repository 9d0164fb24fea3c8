/**
 * A generated program's names and compound types: the C++-tricky names its locals and
 * parameters sometimes take, and its vector and struct types (drawn from what the target's
 * global memory holds).
 */
import fc from "fast-check";
import { lookupBuiltin } from "../../ir/builtins.js";
import { ALL_TYPES, HALF_LANE_TYPES, LANE_TYPES, vec, type FieldDef, type StructDef, type StructTy, type Ty, type ValTy, type VecTy } from "./ast.js";
import { sizeOfTy } from "./compoundValues.js";
import { FULL, type Universe } from "./universe.js";

/**
 * Names that C++ or CUDA give a meaning (keywords, alternative tokens, types, math functions,
 * intrinsics, macros, gk's own internal prefix, reserved `__` and `_X` spellings): legal gk
 * identifiers that the CUDA backend must rename. Locals and parameters sometimes take them.
 */
export const TRICKY_NAMES: readonly string[] = [
  "int", "float", "double", "char", "long", "short", "signed", "unsigned", "auto", "register", "volatile", "static", "extern",
  "class", "struct", "union", "enum", "template", "typename", "namespace", "using", "new", "delete", "this", "operator",
  "and", "or", "not", "xor", "bitand", "bitor", "compl", "not_eq", "and_eq", "sizeof", "decltype", "constexpr", "nullptr",
  "goto", "switch", "case", "default", "asm", "inline", "virtual", "friend", "public", "private",
  "sqrtf", "fminf", "fmaxf", "fabsf", "fmodf", "rsqrtf", "expf", "fmaf", "printf", "malloc", "main", "std", "size_t",
  "__int_as_float", "__float2int_rz", "__ll2float_rn", "__syncthreads", "__shared__", "__device__", "warpSize", "dim3",
  "float2", "uint", "NULL", "INFINITY", "NAN", "M_PI", "assert", "signbit", "fmin", "llabs",
  "gk_t1", "gk_min_f32", "gk_div_i32", "gk_abs_i32", "__x", "_X", "x__y",
].filter((n) => lookupBuiltin(n) === undefined); // a local named like a gk builtin would hide it

/** Up to n distinct names, some from TRICKY_NAMES, the rest `<fallback><i>`. */
export function names(n: number, fallback: string): fc.Arbitrary<string[]> {
  return fc.array(fc.option(fc.constantFrom(...TRICKY_NAMES), { freq: 3 }), { minLength: n, maxLength: n }).map((picked) =>
    picked.map((x, i) => (x !== null && picked.indexOf(x) === i ? x : `${fallback}${i}`)),
  );
}


/** Most bytes of a generated struct (fields past it are dropped): shared arrays of them stay well inside 48 KiB. */
const STRUCT_BYTES = 96;

const VEC_TYPES: readonly VecTy[] = [...LANE_TYPES.flatMap((t) => ([2, 3, 4] as const).map((n) => vec(t, n))), ...HALF_LANE_TYPES.flatMap((t) => ([2, 4, 8] as const).map((n) => vec(t, n)))];

/** One struct, or two with the second holding the first (as a field or an array field). */
function structDefs(u: Universe): fc.Arbitrary<StructDef[]> {
  const valueTy = fc.oneof({ arbitrary: fc.constantFrom<ValTy>(...memoryLanes(u)), weight: 3 }, { arbitrary: fc.constantFrom<ValTy>(...vecTypesOf(u)), weight: 2 });
  const dims = fc.constantFrom<readonly number[]>([], [], [], [], [2], [3], [2, 2]);
  const struct = (name: StructTy, inner: StructTy | null): fc.Arbitrary<StructDef> => {
    const t = inner ? fc.oneof({ arbitrary: valueTy, weight: 2 }, { arbitrary: fc.constant<ValTy>(inner), weight: 1 }) : valueTy;
    return fc.tuple(fc.array(fc.tuple(t, dims), { minLength: 1, maxLength: 4 }), names(4, "f")).map(([fs, ns]) => ({
      name,
      fields: fs.map(([ft, d], i): FieldDef => ({ name: ns[i]!, t: ft, dims: d })),
    }));
  };
  const one = struct("S0", null).map((a) => [a]);
  const two = fc.tuple(struct("S0", null), struct("S1", "S0")).map(([a, b]) => [a, b]);
  return fc.oneof(one, two).map((defs) => {
    const out: StructDef[] = [];
    for (const d of defs) {
      let fields = d.fields;
      while (fields.length > 1 && sizeOfTy(d.name, [...out, { ...d, fields }]) > STRUCT_BYTES) fields = fields.slice(0, -1);
      out.push({ ...d, fields });
    }
    return out;
  });
}

/** The program's vector types (in one program in three) and structs (in one in five): none in most programs, so that scalar code keeps most of the runs. */
export function compoundTypes(u: Universe): fc.Arbitrary<{ vecTypes: VecTy[]; structs: StructDef[] }> {
  const vecTypes = fc.oneof({ arbitrary: fc.constant<VecTy[]>([]), weight: 2 }, { arbitrary: fc.uniqueArray(fc.constantFrom(...vecTypesOf(u)), { minLength: 1, maxLength: 3 }), weight: 1 });
  const structs = fc.oneof({ arbitrary: fc.constant<StructDef[]>([]), weight: 4 }, { arbitrary: structDefs(u), weight: 1 });
  if (u.buffers === Infinity) return fc.record({ vecTypes, structs });
  // Each has an input and an output array: as many as the target's buffers leave room for (vectors first; S1 holds S0, so S0 stays).
  const room = Math.max(0, Math.floor((u.buffers - 2 * memoryScalarsOf(u).length) / 2));
  return fc.record({ vecTypes, structs }).map((r) => {
    const v = r.vecTypes.slice(0, room);
    return { vecTypes: v, structs: r.structs.slice(0, room - v.length) };
  });
}

/** The scalar types that have `in_T` and `out_T` arrays: those global memory holds. */
export function memoryScalarsOf(u: Universe): readonly Ty[] {
  return u === FULL ? ALL_TYPES : u.all.filter(u.inMemory);
}

/**
 * Lane types of the program's vectors and struct fields: every one of them has `in_T` and
 * `out_T` arrays, so only those global memory may hold.
 */
export function memoryLanes(u: Universe): readonly Ty[] {
  return u === FULL ? LANE_TYPES : u.lanes.filter(u.inMemory);
}

export function vecTypesOf(u: Universe): readonly VecTy[] {
  return u === FULL ? VEC_TYPES : [...memoryLanes(u).flatMap((t) => ([2, 3, 4] as const).map((n) => vec(t, n))), ...u.halfLanes.filter(u.inMemory).map((t) => vec(t, 2))];
}
