/**
 * Legalize: the last step before a code generator, after `fold`. Reads the target's
 * capability table (src/ir/target.ts) and refuses, with a located diagnostic (GK7008), what
 * the program uses and the target lacks: one diagnostic per capability (and per builtin the
 * target has no implementation of), at its first use in
 * the module (by file and position), so a program of f64 math gets one message, not hundreds.
 * The IR is not changed; a target that lacks nothing (CUDA) finds nothing to refuse. WGSL's
 * record (src/codegen/wgsl/target.ts) lacks the most: 64-bit and narrow types, warp
 * operations, views, references, ordering, and bools in global or constant memory.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { error } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../diagnostics/source.js";
import type { Expr, Function, Module, Stmt } from "../nodes.js";
import { CAPABILITY_WORDS, type Capability, type Target } from "../target.js";
import type { ArrayType, MemoryType, ValueType, VoidType } from "../types.js";
import { visit } from "../walk.js";
import { warpBuiltin } from "../builtins.js";

export function legalize(m: Module, target: Target): Diagnostic[] {
  const first = new Map<Capability, Span>();
  const firstBuiltin = new Map<string, Span>();
  const useBuiltin = (name: string, span: Span) => {
    const at = firstBuiltin.get(name);
    if (target.lacksBuiltins?.has(name) && (!at || before(span, at))) firstBuiltin.set(name, span);
  };
  const use = (c: Capability, span: Span) => {
    const at = first.get(c);
    if (!target.capabilities[c] && (!at || before(span, at))) first.set(c, span);
  };
  const useType = (t: ValueType | MemoryType | VoidType, span: Span) => {
    for (const c of typeCapabilities(t)) use(c, span);
  };
  for (const a of m.constantArrays ?? []) useType(a.type, a.span);
  for (const f of [...m.functions, ...m.kernels]) legalizeFunction(f, use, useType, useBuiltin);
  const refused = [
    ...[...first].map(([c, span]) => ({ span, message: `the ${target.name} target has no ${CAPABILITY_WORDS[c]}, which this program uses here` })),
    ...[...firstBuiltin].map(([name, span]) => ({ span, message: `the ${target.name} target has no ${name} (${target.lacksBuiltins!.get(name)}), which this program uses here` })),
  ];
  return refused.sort((a, b) => (before(a.span, b.span) ? -1 : 1)).map((r) => error("GK7008", r.span, r.message));
}

type Use = (c: Capability, span: Span) => void;
type UseType = (t: ValueType | MemoryType | VoidType, span: Span) => void;

function legalizeFunction(f: Function, use: Use, useType: UseType, useBuiltin: (name: string, span: Span) => void): void {
  for (const p of f.params) {
    useType(p.type, p.span);
    if (p.kind === "valueVar" && p.ref) use("references", p.span);
  }
  useType(f.returnType, f.span);
  for (const a of f.shared) useType(a.type, a.span);
  visit(f.body, {
    stmt: (s: Stmt) => {
      if (s.kind === "let") useType(s.var.type, s.span);
      else if (s.kind === "localArray") useType(s.array.type, s.span);
      else if (s.kind === "fence" || (s.kind === "store" && s.order)) use("memoryOrdering", s.span);
      else if (s.kind === "asyncCopy" || s.kind === "asyncGroup") use("asyncCopies", s.span);
    },
    expr: (e: Expr) => {
      if ("type" in e && e.type) useType(e.type as ValueType, e.span);
      if (e.kind === "warp") use(["mma", "ldmatrix"].includes(warpBuiltin(e.op).rule.shape) ? "tensorCores" : "warpOperations", e.span);
      else if (e.kind === "atomic") use("atomics", e.span);
      else if (e.kind === "builtin") useBuiltin(e.name, e.span);
      else if (e.kind === "load" && e.order) use("memoryOrdering", e.span);
      else if (e.kind === "call") for (const a of e.args) if (a.kind === "viewArg") use("views", a.span);
    },
  });
}

/** The capabilities a type needs: its scalars', and its memory's own. */
function typeCapabilities(t: ValueType | MemoryType | VoidType): Capability[] {
  switch (t.kind) {
    case "void":
      return [];
    case "scalar":
      if (t.name === "f64") return ["f64"];
      if (t.name === "i64" || t.name === "u64") return ["i64"];
      if (t.name === "f16" || t.name === "bf16") return ["halves"];
      if (t.name === "i8" || t.name === "u8" || t.name === "i16" || t.name === "u16") return ["smallInts"];
      return [];
    case "vector":
      return typeCapabilities(t.elem);
    case "struct":
      return t.fields.flatMap((f) => typeCapabilities(f.type));
    case "global":
      return [...typeCapabilities(t.elem), ...(holdsBool(t.elem) ? (["globalBools"] as const) : [])];
    case "array":
      return [...typeCapabilities(t.elem), ...(t.space === "constant" && holdsBool(t.elem) ? (["globalBools"] as const) : [])];
    case "dynamicShared":
      return ["dynamicShared", ...typeCapabilities(t.elem)];
    case "view":
      return ["views", ...typeCapabilities(t.elem)];
  }
}

/** Whether a value type has a bool in it (a bool, a vector of bools, a struct with one). */
function holdsBool(t: ValueType | ArrayType): boolean {
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

function before(a: Span, b: Span): boolean {
  return a.file < b.file || (a.file === b.file && a.start < b.start);
}
