/**
 * C++ names for gk's names, chosen deterministically.
 *
 * - A gk name that is a safe C++ identifier is kept: it matches `[A-Za-z][A-Za-z0-9_]*`, has no
 *   double underscore, and is not reserved: not a keyword, a macro of the headers nvcc
 *   includes, a name the generated code itself refers to (`fabsf`, `min`, `threadIdx`), nor
 *   one with a reserved prefix (`_`, `gk_`, `cuda`, `cu`/`CU` + capital); and, for kernels
 *   and device functions, not a name those headers declare at global scope, nor one starting
 *   with `atomic` + capital or `make_` (src/codegen/cuda/reserved.ts).
 * - Otherwise it is spelled safely: characters C++ does not allow become `_xHH_` (their
 *   code point in hex), runs of `_` shrink to one, leading `_` go, a reserved prefix gets `u_`
 *   in front, and a reserved word gets `_` after it: `int` → `int_`, `__x` → `x`,
 *   `gk_min` → `u_gk_min`, `a$b` → `a_x24_b`.
 * - Names are unique. A kernel or device function whose name is safe keeps it; the others are
 *   then spelled safely, kernels first, in module order. Within a function, its parameters,
 *   shared arrays and locals take names in declaration order, avoiding every function's name. A name already
 *   taken gets `_1`, `_2`, ... (`x`, `x_1`): two IR variables with one name in a function (a
 *   shadowed or a reused name) always get different C++ names, so C++ scoping never decides
 *   which one an expression means.
 */
import type { ArrayVar, Function, Module, ValueVar } from "../../ir/nodes.js";
import {
  builtinCudaNames,
  CPP_KEYWORDS,
  CUDA_BUILTIN_VARIABLES,
  CUDA_VECTOR_TYPES,
  GLOBAL_RESERVED_PREFIXES,
  HEADER_DECLARATIONS,
  HEADER_MACROS,
  MATH_FAMILIES,
  MATH_SUFFIXES,
  kernelSymbolProblem,
  RESERVED_PREFIXES,
} from "./reserved.js";
import { CUDA } from "./settings.js";
import { visit } from "../../ir/walk.js";
import { instanceSymbol } from "../../ir/instances.js";

/** Where a name is declared: at global scope (kernels, device functions) or in a function. */
export type NameScope = "global" | "local";

/** Reserved in every scope. */
const RESERVED_EVERYWHERE: ReadonlySet<string> = new Set([
  ...CPP_KEYWORDS,
  ...CUDA_BUILTIN_VARIABLES,
  ...HEADER_MACROS,
  ...builtinCudaNames(),
  ...Object.values(CUDA.floatRem),
]);

/** Reserved for names declared at global scope. */
const RESERVED_GLOBALLY: ReadonlySet<string> = new Set([
  ...HEADER_DECLARATIONS,
  ...CUDA_VECTOR_TYPES,
  ...MATH_FAMILIES.flatMap((f) => MATH_SUFFIXES.flatMap((s) => [f + s, `${f}${s}_r`])),
]);

function isReservedWord(name: string, scope: NameScope): boolean {
  return RESERVED_EVERYWHERE.has(name) || (scope === "global" && RESERVED_GLOBALLY.has(name));
}

function hasReservedPrefix(name: string, scope: NameScope): boolean {
  return RESERVED_PREFIXES.some((p) => p.test(name)) || (scope === "global" && GLOBAL_RESERVED_PREFIXES.some((p) => p.test(name)));
}

/** Whether generated code may not declare this identifier in this scope. */
export function isReservedIdentifier(name: string, scope: NameScope): boolean {
  return isReservedWord(name, scope) || hasReservedPrefix(name, scope);
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Whether a gk name can be used unchanged in the generated CUDA. */
export function isSafeIdentifier(name: string, scope: NameScope): boolean {
  return IDENTIFIER.test(name) && !isReservedIdentifier(name, scope);
}

/** The safe spelling of a name, before making it unique (see the file comment). */
export function safeSpelling(name: string, scope: NameScope): string {
  if (isSafeIdentifier(name, scope)) return name;
  let s = [...name]
    .map((ch) => (/[A-Za-z0-9_]/.test(ch) ? ch : `_x${ch.codePointAt(0)!.toString(16)}_`))
    .join("")
    .replace(/_+/g, "_")
    .replace(/^_+/, "");
  if (s === "" || /^[0-9]/.test(s)) s = `v${s === "" ? "" : "_"}${s}`;
  if (hasReservedPrefix(s, scope)) s = `u_${s}`;
  if (isReservedWord(s, scope)) s = `${s}_`;
  return s;
}

/** Hands out unique safe names. */
export class NameTable {
  private readonly taken: Set<string>;

  /**
   * `taken`: names claimed already, copied; `outer`: names of an enclosing scope, which this
   * table avoids without copying them (one set of the module's global names serves every
   * function's table, so naming a module's variables is linear in its size).
   */
  constructor(
    private readonly scope: NameScope,
    taken: Iterable<string> = [],
    private readonly outer: ReadonlySet<string> = new Set(),
  ) {
    this.taken = new Set(taken);
  }

  /** A fresh name for `name`: its safe spelling, or that with `_1`, `_2`, ... appended. */
  claim(name: string): string {
    const base = safeSpelling(name, this.scope);
    let candidate = base;
    for (let k = 1; this.taken.has(candidate) || this.outer.has(candidate) || !isSafeIdentifier(candidate, this.scope); k++) {
      candidate = base.endsWith("_") ? `${base}${k}` : `${base}_${k}`;
    }
    this.taken.add(candidate);
    return candidate;
  }
}

/** C++ names of a module's global declarations: its functions by IR name, its constant arrays by id. */
export interface GlobalNames {
  readonly functions: ReadonlyMap<string, string>;
  readonly constants: ReadonlyMap<number, string>;
  /** The module's global names so far, from which struct names are claimed after these (types.ts). */
  readonly table: NameTable;
}

/**
 * C++ names of a module's functions and `constant` arrays. Kernels keep their names (the
 * checker refuses a kernel name that cannot be its symbol, GK2011; IR made elsewhere with
 * such a name is spelled safely). Then device functions' safe names are claimed (IR names
 * are unique, so each keeps its own), then the others are spelled safely, kernels first,
 * and last the constant arrays (the runtime finds them by the names this reports).
 * An instance of a generic definition is named by src/ir/instances.ts: the definition's name
 * (a generic kernel's verbatim, as a kernel's; a function's claimed like a function's, after
 * all of them), `$`, its arguments (`reduce$f32$256`). No other name has a `$`, so no
 * instance's name can be another function's.
 */
export function globalNames(m: Module): GlobalNames {
  const all = [...m.kernels, ...m.functions];
  const plain = all.filter((f) => !f.instance);
  // Kernels, and the definitions of generic kernels, whose names can be their symbols' (bases).
  const kernelNames = [...new Set(m.kernels.map((k) => k.instance?.generic ?? k.name))];
  const verbatim = kernelNames.filter((n) => kernelSymbolProblem(n) === undefined);
  const table = new NameTable("global", verbatim);
  const functions = new Map<string, string>();
  const definitions = new Map<string, string>(verbatim.map((n) => [n, n]));
  for (const k of m.kernels) if (!k.instance && definitions.has(k.name)) functions.set(k.name, k.name);
  const rest = plain.filter((f) => !functions.has(f.name));
  const safe = new Set(rest.filter((f) => isSafeIdentifier(f.name, "global")));
  for (const f of [...safe, ...rest.filter((f) => !safe.has(f))]) functions.set(f.name, table.claim(f.name));
  for (const f of all) {
    if (!f.instance) continue;
    let base = definitions.get(f.instance.generic);
    if (base === undefined) definitions.set(f.instance.generic, (base = table.claim(f.instance.generic)));
    functions.set(f.name, instanceSymbol(base, f.instance.args));
  }
  const constants = new Map<number, string>((m.constantArrays ?? []).map((a) => [a.id, table.claim(a.name)]));
  return { functions, constants, table };
}

/**
 * The C++ names no variable may take: the module's functions, constant arrays and structs
 * (`structNames`, claimed after globalNames). Made once per module.
 */
export function globalIdentifiers(globals: GlobalNames, structNames: Iterable<string>): ReadonlySet<string> {
  return new Set([...globals.functions.values(), ...globals.constants.values(), ...structNames]);
}

/** C++ names of one function's parameters, shared arrays and locals, by IR variable id, avoiding `globals` (globalIdentifiers). */
export function variableNames(f: Function, globals: ReadonlySet<string>): Map<number, string> {
  const table = new NameTable("local", [], globals);
  const names = new Map<number, string>();
  const claim = (v: ValueVar | ArrayVar) => {
    if (!names.has(v.id)) names.set(v.id, table.claim(v.name));
  };
  f.params.forEach(claim);
  f.shared.forEach(claim);
  visit(f.body, {
    stmt: (s) => {
      if (s.kind === "let") claim(s.var);
      else if (s.kind === "localArray") claim(s.array);
    },
  });
  return names;
}
