/**
 * C++ names for gk's names, chosen deterministically.
 *
 * - A gk name that is a safe C++ identifier is kept: it matches `[A-Za-z][A-Za-z0-9_]*`, has no
 *   double underscore, and is not reserved: not a keyword, a macro of the headers nvcc
 *   includes, a name the generated code itself refers to (`fabsf`, `min`, `threadIdx`), nor
 *   one with a reserved prefix (`_`, `gk_`, `cuda`, `cu`/`CU` + capital); and, for kernels
 *   and device functions, not a name those headers declare at global scope, nor one starting
 *   with `atomic` + capital or `make_` (src/backends/cuda/reserved.ts).
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
import { builtins, type AtomicEntry, type IndexEntry, type MathEntry, type SyncEntry, type WarpEntry } from "../../ir/builtins.js";
import type { ArrayVar, Function, Module, ValueVar } from "../../ir/nodes.js";
import { assertNever } from "../../util.js";
import {
  CPP_KEYWORDS,
  CUDA_BUILTIN_VARIABLES,
  CUDA_VECTOR_TYPES,
  GLOBAL_RESERVED_PREFIXES,
  HEADER_DECLARATIONS,
  HEADER_MACROS,
  MATH_FAMILIES,
  MATH_SUFFIXES,
  RESERVED_PREFIXES,
} from "./reserved.js";
import { CUDA } from "./settings.js";
import { visit } from "../../ir/walk.js";
import { fill } from "../../ir/templates.js";
import { instanceSymbol } from "../../ir/instances.js";

/** Identifiers that the builtin table's CUDA templates use (`fabsf`, `atomicCAS`, `threadIdx`, ...). */
function templateVocabulary(): string[] {
  const args = ["a", "b", "c"];
  const texts: string[] = [];
  for (const b of builtins) {
    switch (b.rule.kind) {
      case "math":
        for (const impl of Object.values((b as MathEntry).cuda)) if (impl) texts.push(fill(impl.template, args));
        break;
      case "atomic":
        for (const impl of Object.values((b as AtomicEntry).cuda)) if (impl) texts.push(fill(impl.template, ["p", ...args]));
        break;
      case "sync":
        texts.push(fill((b as SyncEntry).cuda, []));
        break;
      case "index":
        for (const axis of [0, 1, 2] as const) texts.push(`(int)${(b as IndexEntry).cuda(axis)}`);
        break;
      case "warp":
        texts.push(fill((b as WarpEntry).cuda.template, args));
        break;
      case "constant":
      case "vector":
      case "vectorMemory":
        break;
      default:
        assertNever(b.rule, "builtin rule");
    }
  }
  // The placeholders, and the members .x .y .z of CUDA's index variables, are not names to avoid.
  const notNames = new Set([...args, "p", "x", "y", "z"]);
  return texts.flatMap((t) => t.match(/\b[A-Za-z_]\w*/g) ?? []).filter((w) => !notNames.has(w));
}

/** Where a name is declared: at global scope (kernels, device functions) or in a function. */
export type NameScope = "global" | "local";

/** Reserved in every scope. */
const RESERVED_EVERYWHERE: ReadonlySet<string> = new Set([
  ...CPP_KEYWORDS,
  ...CUDA_BUILTIN_VARIABLES,
  ...HEADER_MACROS,
  ...templateVocabulary(),
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

  constructor(
    private readonly scope: NameScope,
    taken: Iterable<string> = [],
  ) {
    this.taken = new Set(taken);
  }

  /** A fresh name for `name`: its safe spelling, or that with `_1`, `_2`, ... appended. */
  claim(name: string): string {
    const base = safeSpelling(name, this.scope);
    let candidate = base;
    for (let k = 1; this.taken.has(candidate) || !isSafeIdentifier(candidate, this.scope); k++) {
      candidate = base.endsWith("_") ? `${base}${k}` : `${base}_${k}`;
    }
    this.taken.add(candidate);
    return candidate;
  }
}

/**
 * C++ names of a module's functions: IR name → C++ name. Safe names are claimed first (IR
 * names are unique, so each keeps its own), then the others are spelled safely, kernels first.
 * An instance of a generic definition is named by src/ir/instances.ts: the definition's name
 * (claimed like a function's, after all of them), `$`, its arguments (`reduce$f32$256`). No
 * other name has a `$`, so no instance's name can be another function's.
 */
export function functionNames(m: Module, table = new NameTable("global")): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  const all = [...m.kernels, ...m.functions];
  const plain = all.filter((f) => !f.instance);
  const safe = plain.filter((f) => isSafeIdentifier(f.name, "global"));
  for (const f of [...safe, ...plain.filter((f) => !safe.includes(f))]) names.set(f.name, table.claim(f.name));
  const definitions = new Map<string, string>();
  for (const f of all) {
    if (!f.instance) continue;
    let base = definitions.get(f.instance.generic);
    if (base === undefined) definitions.set(f.instance.generic, (base = table.claim(f.instance.generic)));
    names.set(f.name, instanceSymbol(base, f.instance.args));
  }
  return names;
}

/** C++ names of one function's parameters, shared arrays and locals, by IR variable id. */
export function variableNames(f: Function, functionCNames: Iterable<string>): Map<number, string> {
  const table = new NameTable("local", functionCNames);
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
