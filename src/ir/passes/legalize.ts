/**
 * Legalize: the last step before a code generator, after `fold`. Reads the target's
 * capability table (src/ir/target.ts) and refuses, with a located diagnostic (GK7008), what
 * the program uses and the target lacks: one diagnostic per capability, at its first use in
 * the module (by file and position), so a program of f64 math gets one message, not hundreds.
 * The IR is not changed; a target that lacks nothing (CUDA) finds nothing to refuse.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { error } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../diagnostics/source.js";
import type { Expr, Function, Module, Stmt } from "../nodes.js";
import { CAPABILITY_WORDS, type Capability, type Target } from "../target.js";
import type { MemoryType, ValueType, VoidType } from "../types.js";
import { visit } from "../walk.js";
import { warpBuiltin } from "../builtins.js";

export function legalize(m: Module, target: Target): Diagnostic[] {
  const first = new Map<Capability, Span>();
  const use = (c: Capability, span: Span) => {
    const at = first.get(c);
    if (!target.capabilities[c] && (!at || before(span, at))) first.set(c, span);
  };
  const useType = (t: ValueType | MemoryType | VoidType, span: Span) => {
    for (const c of typeCapabilities(t)) use(c, span);
  };
  for (const a of m.constantArrays ?? []) useType(a.type, a.span);
  for (const f of [...m.functions, ...m.kernels]) legalizeFunction(f, use, useType);
  return [...first].sort((a, b) => (before(a[1], b[1]) ? -1 : 1)).map(([c, span]) =>
    error("GK7008", span, `the ${target.name} target has no ${CAPABILITY_WORDS[c]}, which this program uses here`),
  );
}

type Use = (c: Capability, span: Span) => void;
type UseType = (t: ValueType | MemoryType | VoidType, span: Span) => void;

function legalizeFunction(f: Function, use: Use, useType: UseType): void {
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
    case "array":
      return typeCapabilities(t.elem);
    case "dynamicShared":
      return ["dynamicShared", ...typeCapabilities(t.elem)];
    case "view":
      return ["views", ...typeCapabilities(t.elem)];
  }
}

function before(a: Span, b: Span): boolean {
  return a.file < b.file || (a.file === b.file && a.start < b.start);
}
