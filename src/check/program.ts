/** Checking a whole program: every loaded file, its imports, its functions, and the entry file's launches. */
import type { Target } from "../ir/target.js";
import type { LoadedFile, LoadedProgram } from "../load/program.js";
import type * as ast from "../parser/ast.js";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { ArrayVar, ExportedConstant, Function, GenericKernel, GenericParamInfo, Launch, Module, ModuleConstant } from "../ir/nodes.js";
import { constantsRead } from "../ir/kernelMemory.js";
import { byteSize, type ScalarValue } from "../ir/types.js";
import { newCtx, type CallSite } from "./context.js";
import { FileScope } from "./fileScope.js";
import { checkFunctionBody } from "./function.js";
import { Generics } from "./generics.js";
import { requestInstance, type InstanceRequest } from "./instanceRequest.js";
import { checkLaunch, launchTarget, type LaunchTarget } from "./launch.js";
import { structsIn, type StructType } from "../ir/types.js";
import { orderFunctions, recursiveDefinitions } from "./callgraph.js";
import { checkAtomicViews } from "./atomicViews.js";
import type { GenericParamSig, GenericSymbol, ModuleSymbol } from "./symbols.js";
import { invariant } from "../util.js";

/**
 * Checks the program; returns the IR when there were no errors. `requests` name instances
 * of the entry file's generic kernels to make besides those its launch statements name
 * (the API's `with()`). `target` is the code generator's record (src/ir/target.ts), handed in:
 * the checker asks it whether a kernel's name can be its symbol and how it spells builtins,
 * and refuses declarations and launch statements past its limits.
 */
export function checkLoadedProgram(program: LoadedProgram, log: DiagnosticLog, target: Target, requests: readonly InstanceRequest[] = []): Module | undefined {
  const irNames = assignIrNames(program);
  const flushToZero = moduleOptions(program, log);
  const scopes = new Map<string, FileScope>();
  const constantIds = { next: -1 };
  for (const f of program.files.values()) scopes.set(f.path, new FileScope(f.path, f.text, f.ast.items, log, irNames, constantIds, flushToZero, target));
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
      if (d.kind === "Const" || d.kind === "Constant" || d.kind === "Struct" || !sym) continue;
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
  const exported: ExportedConstant[] = [];
  const genericKernels: GenericKernel[] = [];
  for (const name of entryScope.names()) {
    const sym = entryScope.lookup(name);
    if (sym?.kind === "kernel") {
      const k = kernelsByName.get(sym.irName);
      if (k) kernels.push(k);
    } else if (sym?.kind === "typedConst") {
      constants.push({ name, type: sym.type, value: sym.value, span: sym.span });
      exported.push({ name, type: sym.type, value: sym.value, span: sym.span });
    } else if (sym?.kind === "untypedConst") {
      exported.push({ name, type: sym.value.kind, value: sym.value.value, span: sym.span });
    } else if (sym?.kind === "constArray") {
      const values = sym.values.map((v) => (v.kind === "const" ? v.value : undefined));
      if (values.every((v) => v !== undefined)) exported.push({ name, type: sym.type, value: values as ScalarValue[], span: sym.span });
    } else if (sym?.kind === "generic" && sym.of === "kernel") {
      genericKernels.push({ name, irName: sym.irName, params: sym.params.map(paramInfo), span: sym.span });
    }
  }
  kernels.sort((a, b) => (a.file === b.file ? a.span.start - b.span.start : a.file === entry.path ? -1 : 1));

  const constantArrays = constantMemory(program, scopes, target.limits.constantBytes, log);
  const fnsByName = new Map([...functions, ...kernelsByName.values()].map((f) => [f.name, f]));
  for (const k of kernels) constantClashes(k, fnsByName, log);

  const launches: Launch[] = [];
  const targets: { item: ast.LaunchDecl; target: LaunchTarget }[] = [];
  const launchCtx = newCtx(log, entryScope, "const", "launch", { kind: "void" }, { instances: generics });
  for (const item of entry.ast.items) {
    if (item.kind !== "Launch") continue;
    const sym: ModuleSymbol | undefined = entryScope.lookup(item.kernel.name);
    // The kernel: an instance's is checked with the other instances (generics.finish), below.
    const target = launchTarget(launchCtx, item, sym);
    if (target) targets.push({ item, target });
  }
  for (const r of requests) requestInstance(entryScope, generics, r, log);

  generics.finish(recursiveDefinitions(new Map([...calls, ...generics.calls]), definitions.map((d) => d.irName)));
  for (const [name, c] of generics.calls) calls.set(name, c);
  for (const f of [...generics.kernels, ...generics.functions]) fnsByName.set(f.name, f);
  for (const k of generics.kernels) constantClashes(k, fnsByName, log);
  for (const { item, target } of targets) {
    const fn = fnsByName.get(target.name);
    // An instance whose body has errors has reported them.
    if (target.instance && !fn) continue;
    const l = checkLaunch(launchCtx, item, target, fn, fn ? constantsRead(fn, fnsByName) : []);
    if (l) launches.push(l);
  }
  // Kernel instances follow the plain kernels, in the order they were first named.
  kernels.push(...generics.kernels);
  const ordered = orderFunctions([...functions, ...generics.functions], kernels, calls, entry.path, log, definitions.map((d) => d.irName));
  checkAtomicViews([...ordered, ...kernels], log);
  if (log.errorCount > errorsBefore || log.hasErrors) return undefined;
  // Every struct of every file, each after those it contains (the CUDA backend defines them in this order).
  const structs: StructType[] = [];
  for (const f of program.files.values()) for (const t of scopes.get(f.path)!.structs()) structsIn(t, structs);
  return { file: entry.path, ...(flushToZero && { flushToZero }), constantArrays, functions: ordered, kernels, structs, ...(genericKernels.length && { generics: genericKernels }), constants, launches, exported };
}

function paramInfo(p: GenericParamSig): GenericParamInfo {
  if (p.kind === "type") return { kind: "typeParam", name: p.name, allowed: p.allowed };
  // Kernels take no function parameters (genericParams refuses them).
  invariant(p.kind === "const", "a generic kernel with a function parameter");
  return { kind: "constParam", name: p.name, type: p.type };
}

/** A kernel's parameter or shared array named like a constant array it reads, which its launches give by name (GK2002). */
function constantClashes(k: Function, fns: ReadonlyMap<string, Function>, log: DiagnosticLog): void {
  for (const a of constantsRead(k, fns)) {
    const clash = [...k.params, ...k.shared].find((p) => p.name === a.name);
    if (clash) log.error("GK2002", clash.span, `'${a.name}' names both this ${clash.kind === "arrayVar" && k.shared.includes(clash) ? "shared array" : "parameter"} of kernel '${k.name}' and a constant array it reads, which its launches give by name: rename one`, [{ message: "the constant array", span: a.span }]);
  }
}

/** Every `constant` array of the program's files, in file order: together at most `limit` bytes, the target's constant memory per module (CUDA's 64 KiB; GK4014). */
function constantMemory(program: LoadedProgram, scopes: ReadonlyMap<string, FileScope>, limit: number, log: DiagnosticLog): ArrayVar[] {
  const arrays: ArrayVar[] = [];
  let bytes = 0;
  for (const f of program.files.values()) {
    for (const item of f.ast.items) {
      if (item.kind !== "Constant") continue;
      const sym = scopes.get(f.path)!.lookup(item.name.name);
      if (sym?.kind !== "constantArray") continue;
      const t = sym.array.type;
      const before = bytes;
      bytes += t.kind === "array" ? t.dims.reduce((a, b) => a * b, 1) * byteSize(t.elem) : 0;
      if (before <= limit && bytes > limit) {
        log.error("GK4014", item.name.span, `the module's constant arrays now take ${bytes} bytes; a module's constant memory holds at most ${limit} bytes (pass large data as a readonly global array)`);
      }
      arrays.push(sym.array);
    }
  }
  return arrays;
}

/** The entry file's module options (`@flushToZero;`); an option elsewhere, repeated, unknown or with arguments is GK4013. */
function moduleOptions(program: LoadedProgram, log: DiagnosticLog): boolean {
  let flushToZero = false;
  for (const f of program.files.values()) {
    for (const item of f.ast.items) {
      if (item.kind !== "ModuleAnnotation") continue;
      const a = item.annotation;
      const name = a.name.name;
      if (name !== "flushToZero") {
        const why = name === "unroll" ? "@unroll annotates the loop after it, inside a function" : `unknown module option '@${name}': the module option is @flushToZero`;
        log.error("GK4013", a.span, why);
      } else if (a.args) {
        log.error("GK4013", a.span, "@flushToZero takes no arguments: write '@flushToZero;'");
      } else if (f.path !== program.entry) {
        log.error("GK4013", a.span, `@flushToZero is an option of the module built from the entry file (${program.entry}), which this imported file cannot set: write it there`);
      } else if (flushToZero) {
        log.error("GK4013", a.span, "@flushToZero is given twice");
      } else {
        flushToZero = true;
      }
    }
  }
  return flushToZero;
}

/**
 * Unique names across files. The module's kernels (the entry file's and those it imports)
 * keep their names, which are their symbols in the built module (GK2011); then the entry
 * file's other declarations keep theirs, and the other files' get a suffix on a clash.
 */
function assignIrNames(program: LoadedProgram): Map<ast.KernelDecl | ast.FunctionDecl, string> {
  const names = new Map<ast.KernelDecl | ast.FunctionDecl, string>();
  const taken = new Set<string>();
  const claim = (item: ast.KernelDecl | ast.FunctionDecl) => {
    if (names.has(item)) return;
    let name = item.name.name;
    for (let k = 1; taken.has(name); k++) name = `${item.name.name}_${k}`;
    taken.add(name);
    names.set(item, name);
  };
  moduleKernels(program).forEach(claim);
  for (const f of program.files.values()) {
    for (const item of f.ast.items) if (item.kind === "Kernel" || item.kind === "Function") claim(item);
  }
  return names;
}

/** The kernels the entry file declares or imports (through any chain of imports), found by name before any checking. */
function moduleKernels(program: LoadedProgram): ast.KernelDecl[] {
  const entry = program.files.get(program.entry)!;
  const found: ast.KernelDecl[] = entry.ast.items.filter((i): i is ast.KernelDecl => i.kind === "Kernel");
  const resolve = (file: LoadedFile, name: string, seen: Set<string>): ast.KernelDecl | undefined => {
    if (seen.has(`${file.path}\u0000${name}`)) return undefined;
    seen.add(`${file.path}\u0000${name}`);
    for (const item of file.ast.items) {
      if (item.kind === "Kernel" && item.name.name === name) return item;
      if (item.kind !== "Import" || !item.names.some((n) => n.name === name)) continue;
      const target = file.imports.get(item);
      const next = target === undefined ? undefined : program.files.get(target);
      if (next) return resolve(next, name, seen);
    }
    return undefined;
  };
  for (const item of entry.ast.items) {
    if (item.kind !== "Import") continue;
    const target = entry.imports.get(item);
    const file = target === undefined ? undefined : program.files.get(target);
    for (const n of item.names) {
      const k = file && resolve(file, n.name, new Set());
      if (k && !found.includes(k)) found.push(k);
    }
  }
  return found;
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
