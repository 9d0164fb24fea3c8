/** Checking a whole program: every loaded file, its imports, its functions, and the entry file's launches. */
import type * as ast from "../../parser/ast.js";
import type { DiagnosticLog } from "../../diagnostics/diagnostic.js";
import type { ArrayVar, Function, Launch, Module, ModuleConstant, Param } from "../nodes.js";
import { constantsRead } from "../kernelMemory.js";
import { CONSTANT_LIMIT_BYTES } from "../limits.js";
import { byteSize } from "../types.js";
import { newCtx } from "./context.js";
import { FileScope } from "./fileScope.js";
import { checkLaunch } from "./launch.js";
import { alwaysLeaves, checkStmts, declare, newArrayVar, newScalarVar } from "./stmt.js";
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
  const flushToZero = moduleOptions(program, log);
  const scopes = new Map<string, FileScope>();
  const constantIds = { next: -1 };
  for (const f of program.files.values()) scopes.set(f.path, new FileScope(f.path, f.text, f.ast.items, log, irNames, constantIds, flushToZero));
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
      if (d.kind === "Const" || d.kind === "Constant" || !sym || (sym.kind !== "function" && sym.kind !== "kernel")) continue;
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

  const constantArrays = constantMemory(program, scopes, log);
  const fnsByName = new Map([...functions, ...kernelsByName.values()].map((f) => [f.name, f]));
  for (const k of kernels) {
    for (const a of constantsRead(k, fnsByName)) {
      const clash = [...k.params, ...k.shared].find((p) => p.name === a.name);
      if (clash) log.error("GK2002", clash.span, `'${a.name}' names both this ${clash.kind === "arrayVar" && k.shared.includes(clash) ? "shared array" : "parameter"} of kernel '${k.name}' and a constant array it reads, which its launches give by name: rename one`, [{ message: "the constant array", span: a.span }]);
    }
  }

  const launches: Launch[] = [];
  const launchCtx = newCtx(log, entryScope, "const", "launch", { kind: "void" });
  for (const item of entry.ast.items) {
    if (item.kind !== "Launch") continue;
    const sym: ModuleSymbol | undefined = entryScope.lookup(item.kernel.name);
    const fn = sym?.kind === "kernel" ? kernelsByName.get(sym.irName) : undefined;
    const reads = fn ? constantsRead(fn, fnsByName) : [];
    const l = checkLaunch(launchCtx, item, sym, sym?.kind === "kernel" ? sym.irName : item.kernel.name, fn, reads);
    if (l) launches.push(l);
  }

  const ordered = orderFunctions(functions, kernels, calls, entry.path, log);
  if (log.errorCount > errorsBefore || log.hasErrors) return undefined;
  return { file: entry.path, ...(flushToZero && { flushToZero }), constantArrays, functions: ordered, kernels, constants, launches };
}

/** Every `constant` array of the program's files, in file order: together at most 64 KiB, CUDA's constant memory per module (GK4014). */
function constantMemory(program: LoadedProgram, scopes: ReadonlyMap<string, FileScope>, log: DiagnosticLog): ArrayVar[] {
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
      if (before <= CONSTANT_LIMIT_BYTES && bytes > CONSTANT_LIMIT_BYTES) {
        log.error("GK4014", item.name.span, `the module's constant arrays now take ${bytes} bytes; a module's constant memory holds at most ${CONSTANT_LIMIT_BYTES} bytes (pass large data as a readonly global array)`);
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
): { fn: Function; calls: { callee: string; span: ast.Ident["span"] }[] } | undefined {
  const d = sym.decl;
  const kind = sym.kind === "kernel" ? "kernel" : "device_fn";
  const ctx = newCtx(log, scope, kind, sym.name, sym.sig.returnType);
  const params: Param[] = [];
  d.params.forEach((p, i) => {
    const sig = sym.sig.params[i]!;
    const t = sig.type;
    if (t.kind === "scalar") {
      const v = { ...newScalarVar(ctx, p.name, t, true), ...(sig.ref && { ref: sig.ref }) };
      declare(ctx, p.name, { kind: "scalar", var: v });
      params.push(v);
    } else {
      const a = newArrayVar(ctx, p.name, t);
      declare(ctx, p.name, { kind: "array", var: a, readonly: (t.kind === "global" || t.kind === "view") && t.readonly });
      params.push(a);
    }
  });
  const errors = log.errorCount;
  // The copies of module-level constant arrays the body reads come first.
  const body = [...checkStmts(ctx, d.body.body, true)];
  body.unshift(...ctx.prelude);
  if (log.errorCount === errors && kind === "device_fn" && sym.sig.returnType.kind !== "void" && !alwaysLeaves(body)) {
    log.error("GK4003", d.name.span, `'${sym.name}' must return ${sym.sig.returnType.name} on every path: add a 'return' at the end of its body`);
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
