/** Checking a whole program: every loaded file, its imports, its functions, and the entry file's launches. */
import type * as ast from "../../parser/ast.js";
import type { DiagnosticLog } from "../../diagnostics/diagnostic.js";
import type { Function, Launch, Module, ModuleConstant, Param } from "../nodes.js";
import { newCtx } from "./context.js";
import { FileScope } from "./fileScope.js";
import { checkLaunch } from "./launch.js";
import { alwaysLeaves, checkStmts, declare, newArrayVar, newValueVar } from "./stmt.js";
import { structsIn, typeToString, type StructType } from "../types.js";
import { orderFunctions } from "./callgraph.js";
import type { ModuleSymbol } from "./symbols.js";

/** A parsed source file and where each of its imports resolved to (undefined: it failed to load, already reported). */
export interface LoadedFile {
  readonly path: string;
  readonly text: string;
  readonly ast: ast.Module;
  readonly imports: ReadonlyMap<ast.ImportDecl, string | undefined>;
}

export interface LoadedProgram {
  readonly entry: string;
  /** Every file, the entry first. */
  readonly files: ReadonlyMap<string, LoadedFile>;
}

/** Checks the program; returns the IR when there were no errors. */
export function checkLoadedProgram(program: LoadedProgram, log: DiagnosticLog): Module | undefined {
  const irNames = assignIrNames(program);
  const scopes = new Map<string, FileScope>();
  for (const f of program.files.values()) scopes.set(f.path, new FileScope(f.path, f.text, f.ast.items, log, irNames));
  for (const f of program.files.values()) {
    const scope = scopes.get(f.path)!;
    for (const item of f.ast.items) {
      if (item.kind !== "Import") continue;
      const target = f.imports.get(item);
      const from = target === undefined ? undefined : scopes.get(target);
      if (!from) continue;
      for (const n of item.names) scope.addImport(n, from);
    }
  }

  const errorsBefore = log.errorCount;
  const functions: Function[] = [];
  const calls = new Map<string, { callee: string; span: ast.Ident["span"] }[]>();
  const kernelsByName = new Map<string, Function>();
  for (const f of program.files.values()) {
    const scope = scopes.get(f.path)!;
    for (const d of scope.declarations()) {
      const sym = scope.lookup(d.name.name);
      if (d.kind === "Const" || d.kind === "Struct" || !sym || (sym.kind !== "function" && sym.kind !== "kernel")) continue;
      const fn = checkFunction(scope, sym, log);
      if (!fn) continue;
      calls.set(fn.fn.name, fn.calls);
      if (fn.fn.kind === "kernel") kernelsByName.set(fn.fn.name, fn.fn);
      else functions.push(fn.fn);
    }
  }

  const entry = program.files.get(program.entry)!;
  const entryScope = scopes.get(entry.path)!;
  const kernels: Function[] = [];
  const constants: ModuleConstant[] = [];
  for (const name of entryScope.names()) {
    const sym = entryScope.lookup(name);
    if (sym?.kind === "kernel") {
      const k = kernelsByName.get(sym.irName);
      if (k) kernels.push(k);
    } else if (sym?.kind === "typedConst") {
      constants.push({ name, type: sym.type, value: sym.value, span: sym.span });
    }
  }
  kernels.sort((a, b) => (a.file === b.file ? a.span.start - b.span.start : a.file === entry.path ? -1 : 1));

  const launches: Launch[] = [];
  const launchCtx = newCtx(log, entryScope, "const", "launch", { kind: "void" });
  for (const item of entry.ast.items) {
    if (item.kind !== "Launch") continue;
    const sym: ModuleSymbol | undefined = entryScope.lookup(item.kernel.name);
    const l = checkLaunch(launchCtx, item, sym, sym?.kind === "kernel" ? sym.irName : item.kernel.name);
    if (l) launches.push(l);
  }

  const ordered = orderFunctions(functions, kernels, calls, entry.path, log);
  if (log.errorCount > errorsBefore || log.hasErrors) return undefined;
  // Every struct of every file, each after those it contains (the CUDA backend defines them in this order).
  const structs: StructType[] = [];
  for (const f of program.files.values()) for (const t of scopes.get(f.path)!.structs()) structsIn(t, structs);
  return { file: entry.path, functions: ordered, kernels, structs, constants, launches };
}

/** Unique names across files: the entry file keeps its names, others get a suffix on a clash. */
function assignIrNames(program: LoadedProgram): Map<ast.KernelDecl | ast.FunctionDecl, string> {
  const names = new Map<ast.KernelDecl | ast.FunctionDecl, string>();
  const taken = new Set<string>();
  for (const f of program.files.values()) {
    for (const item of f.ast.items) {
      if (item.kind !== "Kernel" && item.kind !== "Function") continue;
      let name = item.name.name;
      for (let k = 1; taken.has(name); k++) name = `${item.name.name}_${k}`;
      taken.add(name);
      names.set(item, name);
    }
  }
  return names;
}

function checkFunction(
  scope: FileScope,
  sym: Extract<ModuleSymbol, { kind: "function" | "kernel" }>,
  log: DiagnosticLog,
): { fn: Function; calls: { callee: string; span: ast.Ident["span"] }[] } | undefined {
  const d = sym.decl;
  const kind = sym.kind === "kernel" ? "kernel" : "device_fn";
  const ctx = newCtx(log, scope, kind, sym.name, sym.sig.returnType);
  const params: Param[] = [];
  d.params.forEach((p, i) => {
    const t = sym.sig.params[i]!.type;
    if (t.kind !== "global" && t.kind !== "array") {
      const v = newValueVar(ctx, p.name, t, true);
      declare(ctx, p.name, { kind: "value", var: v });
      params.push(v);
    } else {
      const a = newArrayVar(ctx, p.name, t);
      declare(ctx, p.name, { kind: "array", var: a, readonly: t.kind === "global" && t.readonly });
      params.push(a);
    }
  });
  const errors = log.errorCount;
  // The copies of module-level constant arrays the body reads come first.
  const body = [...checkStmts(ctx, d.body.body, true)];
  body.unshift(...ctx.prelude);
  if (log.errorCount === errors && kind === "device_fn" && sym.sig.returnType.kind !== "void" && !alwaysLeaves(body)) {
    log.error("GK4003", d.name.span, `'${sym.name}' must return ${typeToString(sym.sig.returnType)} on every path: add a 'return' at the end of its body`);
  }
  if (log.errorCount > errors) return undefined;
  const fn: Function = {
    kind,
    name: sym.irName,
    params,
    returnType: sym.sig.returnType,
    shared: ctx.shared,
    body,
    file: scope.file,
    span: d.span,
  };
  return { fn, calls: ctx.calls };
}
