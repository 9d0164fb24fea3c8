/** Checking a whole program: every loaded file, its imports, its functions, and the entry file's launches. */
import type * as ast from "../../parser/ast.js";
import type { DiagnosticLog } from "../../diagnostics/diagnostic.js";
import type { Function, GenericKernel, GenericParamInfo, Launch, Module, ModuleConstant } from "../nodes.js";
import { newCtx, type CallSite } from "./context.js";
import { FileScope } from "./fileScope.js";
import { checkFunctionBody } from "./function.js";
import { Generics } from "./generics.js";
import { requestInstance, type InstanceRequest } from "./instanceRequest.js";
import { checkLaunch } from "./launch.js";
import { structsIn, type StructType } from "../types.js";
import { orderFunctions, recursiveDefinitions } from "./callgraph.js";
import type { GenericParamSig, GenericSymbol, ModuleSymbol } from "./symbols.js";

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

/**
 * Checks the program; returns the IR when there were no errors. `requests` name instances
 * of the entry file's generic kernels to make besides those its launch statements name
 * (the API's `with()`).
 */
export function checkLoadedProgram(program: LoadedProgram, log: DiagnosticLog, requests: readonly InstanceRequest[] = []): Module | undefined {
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
  const generics = new Generics(log);
  const functions: Function[] = [];
  const calls = new Map<string, readonly CallSite[]>();
  const kernelsByName = new Map<string, Function>();
  const definitions: GenericSymbol[] = [];
  for (const f of program.files.values()) {
    const scope = scopes.get(f.path)!;
    for (const d of scope.declarations()) {
      const sym = scope.lookup(d.name.name);
      if (d.kind === "Const" || d.kind === "Struct" || !sym) continue;
      if (sym.kind === "generic") {
        // Every generic definition is checked, used or not (see generics.ts).
        if (sym.decl === d) definitions.push(sym);
        continue;
      }
      if (sym.kind !== "function" && sym.kind !== "kernel") continue;
      const fn = checkFunction(scope, sym, log, generics);
      calls.set(sym.irName, fn.calls);
      if (!fn.fn) continue;
      if (fn.fn.kind === "kernel") kernelsByName.set(fn.fn.name, fn.fn);
      else functions.push(fn.fn);
    }
  }
  for (const d of definitions) generics.definitionOk(d);

  const entry = program.files.get(program.entry)!;
  const entryScope = scopes.get(entry.path)!;
  const kernels: Function[] = [];
  const constants: ModuleConstant[] = [];
  const genericKernels: GenericKernel[] = [];
  for (const name of entryScope.names()) {
    const sym = entryScope.lookup(name);
    if (sym?.kind === "kernel") {
      const k = kernelsByName.get(sym.irName);
      if (k) kernels.push(k);
    } else if (sym?.kind === "typedConst") {
      constants.push({ name, type: sym.type, value: sym.value, span: sym.span });
    } else if (sym?.kind === "generic" && sym.of === "kernel") {
      genericKernels.push({ name, irName: sym.irName, params: sym.params.map(paramInfo), span: sym.span });
    }
  }
  kernels.sort((a, b) => (a.file === b.file ? a.span.start - b.span.start : a.file === entry.path ? -1 : 1));

  const launches: Launch[] = [];
  const launchCtx = newCtx(log, entryScope, "const", "launch", { kind: "void" }, { instances: generics });
  for (const item of entry.ast.items) {
    if (item.kind !== "Launch") continue;
    const sym: ModuleSymbol | undefined = entryScope.lookup(item.kernel.name);
    const l = checkLaunch(launchCtx, item, sym);
    if (l) launches.push(l);
  }
  for (const r of requests) requestInstance(entryScope, generics, r, log);

  generics.finish(recursiveDefinitions(new Map([...calls, ...generics.calls]), definitions.map((d) => d.irName)));
  for (const [name, c] of generics.calls) calls.set(name, c);
  // Kernel instances follow the plain kernels, in the order they were first named.
  kernels.push(...generics.kernels);
  const ordered = orderFunctions([...functions, ...generics.functions], kernels, calls, entry.path, log, definitions.map((d) => d.irName));
  if (log.errorCount > errorsBefore || log.hasErrors) return undefined;
  // Every struct of every file, each after those it contains (the CUDA backend defines them in this order).
  const structs: StructType[] = [];
  for (const f of program.files.values()) for (const t of scopes.get(f.path)!.structs()) structsIn(t, structs);
  return { file: entry.path, functions: ordered, kernels, structs, ...(genericKernels.length && { generics: genericKernels }), constants, launches };
}

function paramInfo(p: GenericParamSig): GenericParamInfo {
  return p.kind === "type" ? { kind: "typeParam", name: p.name, allowed: p.allowed } : { kind: "constParam", name: p.name, type: p.type };
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
  generics: Generics,
): { readonly fn?: Function; readonly calls: readonly CallSite[] } {
  const kind = sym.kind === "kernel" ? "kernel" : "device_fn";
  const ctx = newCtx(log, scope, kind, sym.name, sym.sig.returnType, { instances: generics });
  return checkFunctionBody(ctx, sym.decl, sym.sig, sym.irName);
}
