/**
 * `kernel(...)` and `deviceFn(...)`: kernels and device functions written in TypeScript.
 *
 *   export const saxpy = kernel((n: i32, alpha: f32, x: ReadonlyGlobal<f32>, out: Global<f32>) => { ... });
 *   await saxpy({ grid: 4, block: 256 }, n, 2.5, x, out);
 *
 * gk does not run the function: kernel() finds its own call in the TypeScript source (the
 * call stack, through a source map for compiled JavaScript: site.ts), compiles the whole
 * file once (the TypeScript front end, src/tsfront, cached by content on disk), and throws
 * the file's diagnostics if it has errors. A bundler plugin (gk/vite) passes what it lowered
 * at build time instead, so bundled code needs neither the source nor TypeScript.
 */
import type { SourceMap } from "../diagnostics/source.js";
import { lineColOf } from "../diagnostics/source.js";
import type { Function, Module } from "../ir/nodes.js";
import { memoryHost, nodeHost } from "../load/program.js";
import { readSourceFile } from "../load/sourceFiles.js";
import type { ParseResult } from "../parser/index.js";
import { frontEnd } from "../pipeline.js";
import { GkCompileError, type ArgInput, type GkModule, type LaunchConfig } from "../runtime/api.js";
import { importedModule } from "../runtime/imported.js";
import { GkRuntimeError } from "../runtime/errors.js";
import { rememberLowered } from "../tsfront/index.js";
import { callerSite, type SourceSite } from "./site.js";
import type { HostArgs } from "./types.js";

/**
 * A TypeScript kernel's launch configuration: LaunchConfig (with `shared`, the lengths of its
 * dynamic shared arrays by name) and `constants`, the contents of the constant arrays it
 * reads, by name (checked at the launch: gk, not TypeScript, knows which it reads).
 */
export interface KernelConfig extends LaunchConfig {
  readonly constants?: Readonly<Record<string, ArgInput>>;
}

/** A kernel written in TypeScript, launched with its parameters' host values in order. */
export interface Kernel<P extends readonly unknown[]> {
  (config: KernelConfig, ...args: HostArgs<P>): Promise<void>;
  /** The kernel's name: the const it initializes. */
  readonly kernelName: string;
  /** The checked program of its file (what gk/testing takes: expectSameOnCpuAndGpu(saxpy, "saxpy", ...)). */
  readonly ir: Module;
  readonly sources: SourceMap;
  /** Its file's module, on the program's target (runtime/imported.ts). */
  module(): Promise<GkModule>;
}

/** What gk/vite lowered at build time: the kernel's file and name, and the program's files. */
export interface PrebuiltKernel {
  readonly file: string;
  readonly name: string;
  readonly files: Readonly<Record<string, { readonly text: string; readonly lowered?: ParseResult }>>;
}

interface Program {
  readonly ir: Module;
  readonly sources: SourceMap;
  module?: Promise<GkModule>;
}

const programs = new Map<string, Program>();

function compileFile(file: string, prebuilt?: PrebuiltKernel): Program {
  let key: string;
  let host = nodeHost;
  if (prebuilt) {
    const texts: Record<string, string> = {};
    for (const [f, entry] of Object.entries(prebuilt.files)) {
      texts[f] = entry.text;
      if (entry.lowered) rememberLowered(f, entry.text, entry.lowered);
    }
    host = memoryHost(texts, nodeHost);
    key = `${file}\0${prebuilt.files[file]?.text ?? ""}`;
  } else {
    const read = readSourceFile(file);
    if ("error" in read) throw new GkRuntimeError("GK7004", `kernel(): cannot read ${file}, the source of this kernel: ${read.error}`);
    key = `${file}\0${read.text}`;
    host = memoryHost({ [file]: read.text }, nodeHost);
  }
  const known = programs.get(key);
  if (known) return known;
  const fe = frontEnd(file, { host });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw new GkCompileError(fe.diagnostics, fe.sources);
  const program: Program = { ir: fe.ir, sources: fe.sources };
  programs.set(key, program);
  return program;
}

/** The kernel of `ir` whose declaration holds the site. */
function kernelAt(program: Program, site: SourceSite): Function {
  const src = program.sources.get(site.file);
  const found = program.ir.kernels.find((k) => {
    if (k.file !== site.file || !src) return false;
    const from = lineColOf(src, k.span.start);
    const to = lineColOf(src, k.span.end);
    const after = site.line > from.line || (site.line === from.line && site.column >= from.col);
    const before = site.line < to.line || (site.line === to.line && site.column <= to.col);
    return after && before;
  });
  if (!found) throw new GkRuntimeError("GK7004", `kernel(): ${site.file}:${site.line}:${site.column} declares no kernel that gk found there; a kernel is declared as a top-level const: export const name = kernel(...)`);
  return found;
}

/** Declares a kernel written in TypeScript (see above). The second argument is gk/vite's, never written by hand. */
export function kernel<P extends unknown[]>(body: (...args: P) => void, prebuilt?: PrebuiltKernel): Kernel<P> {
  void body;
  let program: Program;
  let fn: Function;
  if (prebuilt) {
    program = compileFile(prebuilt.file, prebuilt);
    const k = program.ir.kernels.find((x) => x.name === prebuilt.name);
    if (!k) throw new GkRuntimeError("GK7004", `kernel(): the build of ${prebuilt.file} has no kernel '${prebuilt.name}'; build again`);
    fn = k;
  } else {
    const site = callerSite();
    if (typeof site === "string") throw new GkRuntimeError("GK7004", `kernel(): ${site}`);
    program = compileFile(site.file);
    fn = kernelAt(program, site);
  }
  const module = (): Promise<GkModule> => (program.module ??= importedModule(program.ir, program.sources));
  const launch = async (given: KernelConfig, ...args: unknown[]): Promise<void> => {
    // `constants` joins the arguments; a configuration that is no object goes on as it is, for launch() to name what is wrong.
    const { constants, ...config } = typeof given === "object" && given !== null ? given : { constants: undefined };
    if (constants !== undefined && (typeof constants !== "object" || constants === null || Array.isArray(constants))) {
      throw new GkRuntimeError("GK8005", `${fn.name}: 'constants' gives the constant arrays it reads by name, as in { constants: { TAPS: new Float32Array(17) } }`);
    }
    if (args.length !== fn.params.length) {
      const names = fn.params.map((p) => p.name).join(", ");
      throw new GkRuntimeError("GK8005", `${fn.name}: takes ${fn.params.length} argument${fn.params.length === 1 ? "" : "s"} after the launch configuration (${names}), got ${args.length}`);
    }
    const byName = { ...constants, ...Object.fromEntries(fn.params.map((p, i) => [p.name, args[i]])) };
    await (await module()).launch(fn.name, (typeof given === "object" && given !== null ? config : given) as LaunchConfig, byName as never);
  };
  return Object.defineProperties(launch, {
    name: { value: fn.name },
    kernelName: { value: fn.name, enumerable: true },
    ir: { value: program.ir },
    sources: { value: program.sources },
    module: { value: module },
  }) as unknown as Kernel<P>;
}

/** Declares a device function written in TypeScript: kernels call it; the host cannot. */
export function deviceFn<F extends (...args: never[]) => unknown>(body: F): F {
  const name = body.name || "deviceFn";
  const f = (): never => {
    throw new GkRuntimeError("GK8019", `${name}() is a device function: kernels call it on the device; host code cannot`);
  };
  return f as unknown as F;
}

