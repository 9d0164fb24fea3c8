/**
 * Generic definitions and their instances (spec/language.md, Generics).
 *
 * A generic definition is checked once for every combination of the types its type
 * parameters admit, with its constant parameters' values unknown (they read as typed
 * values, and size arrays whose size the check then does not know): so its body is right
 * for every instance it can have, and an error there names the combination
 * (`in sum<f64, N>: ...`) unless every combination has it.
 *
 * An instance is made where it is used: by a call in code that is not itself a generic
 * definition (plain code, or another instance's body), by a launch statement, or by a
 * request from the API. Each is made once, named by its gk spelling (`sum<f64, 512>`,
 * also its key), its signature resolved at once and its body checked after everything
 * else. The instance's check finds only what depends on the constants' values (an array
 * too large for `BLOCK = 100000`); its errors name it and where it was made.
 */
import { DiagnosticLog, type Diagnostic, type RelatedNote } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/source.js";
import type { Function, Instance, InstanceArg, ValueVar } from "../ir/nodes.js";
import { instanceSpelling } from "../ir/instances.js";
import { T, type ScalarType } from "../ir/types.js";
import { invariant } from "../util.js";
import { newCtx, type Binding, type Bindings, type CallSite, type FnCtx, type GenericMode, type InstanceMaker } from "./context.js";
import { checkFunctionBody } from "./function.js";
import { paramText } from "./genericParams.js";
import { resolveSignature } from "./signature.js";
import type * as ast from "../parser/ast.js";
import type { GenericParamSig, GenericSymbol, Signature } from "./symbols.js";

/**
 * Instances of one program, at most. (Recursion is refused, so making instances ends; but
 * definitions that each make two instances of the next, with new constants, make
 * exponentially many.)
 */
export const MAX_INSTANCES = 10_000;

/** Where an instance was first asked for: a place in a file, or a request from outside (the API). */
export interface Origin {
  readonly span?: Span;
  readonly what: string;
}

interface Made {
  readonly name: string;
  readonly sym: GenericSymbol;
  readonly bindings: Bindings;
  readonly origin: Origin;
  /** Undefined when the signature has errors (reported when it was made). */
  readonly sig?: Signature;
}

export class Generics implements InstanceMaker {
  /** Definitions by IR name: being checked, or checked and whether they are free of errors. */
  private readonly checked = new Map<string, "checking" | boolean>();
  private readonly made = new Map<string, Made>();
  private readonly pending: Made[] = [];
  private limitReported = false;
  /** Calls made by generic definitions (by their IR names) and by instances (by their names), for the call graph. */
  readonly calls = new Map<string, readonly CallSite[]>();
  readonly kernels: Function[] = [];
  readonly functions: Function[] = [];

  constructor(private readonly log: DiagnosticLog) {}

  /**
   * Whether the definition is free of errors, checking it first if it was not yet (a
   * definition that is being checked, through a call that reaches it again, counts as free).
   */
  definitionOk(sym: GenericSymbol): boolean {
    const state = this.checked.get(sym.irName);
    if (state === undefined) {
      this.checked.set(sym.irName, "checking");
      this.checkDefinition(sym);
    }
    return this.checked.get(sym.irName) !== false;
  }

  /** Checks a definition once per combination of the types it admits (see the file comment). */
  private checkDefinition(sym: GenericSymbol): void {
    const typeParams = sym.params.flatMap((p) => (p.kind === "type" ? [p] : []));
    const combinations = typeParams.reduce<ScalarCombination[]>((acc, p) => acc.flatMap((c) => p.allowed.map((t) => [...c, t])), [[]]);
    const logs: { log: DiagnosticLog; label: string; types: ScalarCombination }[] = [];
    for (const types of combinations) {
      const bindings = new Map<string, Binding>();
      typeParams.forEach((p, i) => bindings.set(p.name, { kind: "type", type: types[i]! }));
      for (const p of sym.params) {
        if (p.kind === "const") bindings.set(p.name, { kind: "unknown", type: p.type });
        if (p.kind === "fn") bindings.set(p.name, { kind: "fn", name: p.name });
      }
      const log = new DiagnosticLog();
      const r = this.checkBody(sym, bindings, log, { mode: "definition", symbolic: new Set() }, sym.irName);
      if (logs.length === 0) this.calls.set(sym.irName, r.calls);
      logs.push({ log, label: spelling(sym, bindings), types });
    }
    const first = logs[0]!;
    for (const d of first.log.all) if (d.severity !== "error") this.log.add(d);
    const failing = logs.find((l) => l.log.hasErrors);
    this.checked.set(sym.irName, !failing);
    if (!failing) return;
    // An error every combination has is the definition's own; one that some have names the first that has it.
    const everywhere = logs.every((l) => sameErrors(l.log, failing.log));
    const notes: RelatedNote[] = everywhere
      ? []
      : [{
          message: `here ${typeParams.map((p, i) => `${p.name} = ${failing.types[i]!.name}`).join(", ")}: a generic body must be valid for every type its parameters admit (${typeParams.map(paramText).join(", ")})`,
          span: typeParams[0]!.span,
        }];
    for (const d of errorsOf(failing.log)) this.log.add(everywhere ? d : relabel(d, failing.label, notes));
  }

  signature(ctx: FnCtx, sym: GenericSymbol, bindings: Bindings, at: Span): { readonly callee: string; readonly sig: Signature } | undefined {
    // A definition with errors has reported them; its uses stay quiet.
    if (!this.definitionOk(sym)) return undefined;
    const known = [...bindings.values()].every(isKnown);
    if (ctx.generic?.mode === "definition" || !known) {
      // Only checked, never run: the signature for these bindings, and the definition's name for the call graph.
      const log = new DiagnosticLog();
      const sig = this.resolve(sym, bindings, log);
      for (const d of errorsOf(log)) ctx.log.add(relabel(d, spelling(sym, bindings), [{ message: `${spelling(sym, bindings)} is used here`, span: at }]));
      return sig && { callee: sym.irName, sig };
    }
    const m = this.request(sym, bindings, { span: at, what: "used here" });
    return m?.sig && { callee: m.name, sig: m.sig };
  }

  /**
   * The instance of `sym` with these (known) bindings, made if new: its signature is
   * resolved now, its body checked by `finish`. Undefined when it cannot be made: the
   * definition has errors, or the program has too many instances (reported).
   */
  request(sym: GenericSymbol, bindings: Bindings, origin: Origin): Made | undefined {
    const name = spelling(sym, bindings);
    const known = this.made.get(name);
    if (known) return known;
    if (!this.definitionOk(sym)) return undefined;
    if (this.made.size >= MAX_INSTANCES) {
      if (!this.limitReported) {
        this.limitReported = true;
        this.log.error("GK2020", origin.span, `the program makes more than ${MAX_INSTANCES} instances of generic definitions (the last one asked for: ${name}): use fewer distinct generic arguments`);
      }
      return undefined;
    }
    const log = new DiagnosticLog();
    const sig = this.resolve(sym, bindings, log);
    for (const d of errorsOf(log)) this.log.add(relabel(d, name, madeHere(name, origin)));
    const m: Made = { name, sym, bindings, origin, ...(sig && { sig }) };
    this.made.set(name, m);
    if (sig) this.pending.push(m);
    return m;
  }

  /**
   * Checks the bodies of every instance made so far, and those they make, in order; not
   * those of `recursive` definitions (their recursion is an error of its own).
   */
  finish(recursive: ReadonlySet<string>): void {
    for (let m = this.pending.shift(); m; m = this.pending.shift()) {
      if (recursive.has(m.sym.irName)) continue;
      const log = new DiagnosticLog();
      const instance: Instance = { generic: m.sym.irName, args: m.sym.params.map((p) => instanceArg(m!.bindings.get(p.name)!)) };
      const r = this.checkBody(m.sym, m.bindings, log, { mode: "instance", symbolic: new Set() }, m.name, instance);
      this.calls.set(m.name, r.calls);
      // Warnings were reported with the definition.
      for (const d of errorsOf(log)) this.log.add(relabel(d, m.name, madeHere(m.name, m.origin)));
      if (r.fn) (r.fn.kind === "kernel" ? this.kernels : this.functions).push(r.fn);
    }
  }

  /** The signature with these bindings, its errors in `log`. */
  private resolve(sym: GenericSymbol, bindings: Bindings, log: DiagnosticLog): Signature | undefined {
    const symbolic = new Set<number>();
    const mode = [...bindings.values()].every(isKnown) ? "instance" : "definition";
    const ctx = newCtx(log, sym.scope, sym.of === "kernel" ? "kernel" : "device_fn", sym.name, T.void, { generic: { mode, symbolic } });
    bind(ctx, sym, bindings, symbolic);
    return resolveSignature(ctx, sym.decl);
  }

  private checkBody(sym: GenericSymbol, bindings: Bindings, log: DiagnosticLog, mode: GenericMode, irName: string, instance?: Instance): { fn?: Function; calls: readonly CallSite[] } {
    const symbolic = new Set<number>();
    const generic: GenericMode = { ...mode, symbolic };
    const kind = sym.of === "kernel" ? "kernel" : "device_fn";
    const head = newCtx(log, sym.scope, kind, sym.name, T.void, { generic, instances: this });
    bind(head, sym, bindings, symbolic);
    const sig = resolveSignature(head, sym.decl);
    if (!sig) return { calls: [] };
    // The same scopes and counters, with the return type the bindings give.
    const ctx: FnCtx = { ...head, returnType: sig.returnType };
    return checkFunctionBody(ctx, sym.decl, sig, irName, instance);
  }

  /**
   * The signature function parameter `p` of `sym` declares, with these bindings of the
   * others (`device_fn(a: T, b: T): T` with T = f32); undefined where it does not resolve
   * (an error of the definition, reported with it).
   */
  declaredFnSignature(sym: GenericSymbol, bindings: Bindings, p: Extract<GenericParamSig, { kind: "fn" }>): Signature | undefined {
    const log = new DiagnosticLog();
    const ctx = newCtx(log, sym.scope, "device_fn", sym.name, T.void, { generic: { mode: "definition", symbolic: new Set() } });
    bind(ctx, sym, new Map([...bindings].filter(([name]) => name !== p.name)), new Set());
    return fnConstraintSignature(ctx, p);
  }
}

type ScalarCombination = readonly ScalarType[];

/** Whether a binding is known: a type, a constant's value, a device function. */
function isKnown(b: Binding): boolean {
  return b.kind !== "unknown" && !(b.kind === "fn" && b.irName === undefined);
}

/**
 * Declares the generic parameters in the function's outermost scope: type parameters as
 * their types, constant parameters as their values (or, unknown, as variables in
 * `symbolic`), then function parameters with the signatures they declare (which may name
 * the others). A parameter without a binding is left undeclared.
 */
function bind(ctx: FnCtx, sym: GenericSymbol, bindings: Bindings, symbolic: Set<number>): void {
  for (const p of sym.params) {
    const b = bindings.get(p.name);
    if (!b || b.kind === "fn") continue;
    if (b.kind === "type") {
      ctx.scopes.declare(p.name, { kind: "typeParam", name: p.name, type: b.type, span: p.span });
      continue;
    }
    const v: ValueVar = { kind: "valueVar", id: ctx.nextId++, name: p.name, type: b.type, mutable: false, span: p.span };
    if (b.kind === "unknown") symbolic.add(v.id);
    ctx.scopes.declare(p.name, { kind: "constParam", name: p.name, var: v, ...(b.kind === "const" && { value: b.value }), span: p.span });
  }
  for (const p of sym.params) {
    const b = bindings.get(p.name);
    if (p.kind !== "fn" || b?.kind !== "fn") continue;
    const sig = fnConstraintSignature(ctx, p);
    ctx.scopes.declare(p.name, sig ? { kind: "fnParam", name: p.name, sig, ...(b.irName !== undefined && { callee: b.irName }), span: p.span } : { kind: "poisoned", span: p.span });
  }
}

/** A function parameter's declared signature, resolved in `ctx` (errors in its log). */
function fnConstraintSignature(ctx: FnCtx, p: Extract<GenericParamSig, { kind: "fn" }>): Signature | undefined {
  const { params, returnType, span } = p.decl;
  const decl: ast.FunctionDecl = { kind: "Function", exported: false, name: { name: p.name, span: p.span }, params, returnType, body: { kind: "Block", body: [], span }, span };
  return resolveSignature(ctx, decl);
}

/** `sum<f64, 512>`; a constant not known yet shows as its parameter's name: `sum<f64, N>`. */
export function spelling(sym: GenericSymbol, bindings: Bindings): string {
  return instanceSpelling(sym.irName, sym.params.map((p) => {
    const b = bindings.get(p.name)!;
    return isKnown(b) ? instanceArg(b) : p.name;
  }));
}

function instanceArg(b: Binding): InstanceArg {
  if (b.kind === "type") return { kind: "type", type: b.type };
  if (b.kind === "fn" && b.irName !== undefined) return { kind: "fn", name: b.irName };
  invariant(b.kind === "const", "an instance's argument is not known");
  return { kind: "const", type: b.type, value: b.value };
}

function errorsOf(log: DiagnosticLog): Diagnostic[] {
  return log.all.filter((d) => d.severity === "error");
}

function sameErrors(a: DiagnosticLog, b: DiagnosticLog): boolean {
  const key = (d: Diagnostic) => `${d.code}@${d.span?.file}:${d.span?.start}`;
  const ka = errorsOf(a).map(key).sort().join(",");
  return ka === errorsOf(b).map(key).sort().join(",");
}

/** The diagnostic as seen in an instance or a combination: `in sum<f64, 512>: ...`, with notes. */
function relabel(d: Diagnostic, label: string, notes: readonly RelatedNote[]): Diagnostic {
  return { ...d, message: `in ${label}: ${d.message}`, notes: [...d.notes, ...notes] };
}

function madeHere(name: string, origin: Origin): RelatedNote[] {
  return [origin.span ? { message: `${name} is ${origin.what}`, span: origin.span } : { message: `${name} is ${origin.what}` }];
}
