/**
 * Instances of generic kernels named from TypeScript (README, "Generic kernels"):
 *
 *   mod.reduce.with({ T: "f32", BLOCK: 256 })       a kernel function for reduce<f32, 256>
 *   mod.launch("reduce<f32, 256>", config, args)     the same, by the instance's name
 *
 * An instance that the program's launch statements made already runs in the module's own
 * build. Another is checked from the program's sources with the instance requested, and
 * runs in a module of its own: the instance and the device functions it calls, whose CUDA
 * depends on nothing else, so the kernel cache builds each instance once, whatever program
 * asks for it. A module keeps the last INSTANCE_CACHE_SIZE instances it made (InstanceCache);
 * one dropped is checked again when next asked for, and a kernel function made from it
 * before keeps it and runs as before.
 */
import type { SourceMap } from "../diagnostics/source.js";
import type { InstanceRequest } from "../check/instanceRequest.js";
import { instanceSpelling, parseInstanceSpelling } from "../ir/instances.js";
import type { Function, GenericKernel, InstanceArg, Module } from "../ir/nodes.js";
import { typeToString } from "../ir/types.js";
import { coerceScalar } from "../ir/values.js";
import { visit } from "../ir/walk.js";
import { memoryHost } from "../load/program.js";
import { frontEnd } from "../pipeline.js";
import { GkRuntimeError } from "./errors.js";

/** A generic kernel's arguments by parameter name: a type by its name (`"f32"`), a constant as a number, bigint or boolean. */
export type GenericArgs = Readonly<Record<string, string | number | bigint | boolean>>;

/** An instance asked for: the request the checker takes, and the instance's name in the IR. */
export interface NamedInstance {
  readonly request: InstanceRequest;
  readonly name: string;
}

/** How many instances a module keeps made for with() and launch(name) (spec/language.md, Generic kernels). */
export const INSTANCE_CACHE_SIZE = 256;

/** The most recently used `limit` values by key; the least recently used is dropped first. */
export class InstanceCache<V> {
  readonly #values = new Map<string, V>();

  constructor(readonly limit = INSTANCE_CACHE_SIZE) {}

  get size(): number {
    return this.#values.size;
  }

  get(key: string): V | undefined {
    const v = this.#values.get(key);
    if (v !== undefined) {
      // A Map iterates in insertion order: put the key last, the most recently used.
      this.#values.delete(key);
      this.#values.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.#values.delete(key);
    this.#values.set(key, value);
    for (const oldest of this.#values.keys()) {
      if (this.#values.size <= this.limit) break;
      this.#values.delete(oldest);
    }
  }
}

function invalid(message: string): GkRuntimeError {
  return new GkRuntimeError("GK8005", message);
}

/** `<T: f32 | f64, BLOCK: i32>`. */
export function genericParamList(g: GenericKernel): string {
  return `<${g.params.map((p) => (p.kind === "typeParam" ? `${p.name}: ${p.allowed.map(typeToString).join(" | ")}` : `${p.name}: ${p.type.name}`)).join(", ")}>`;
}

/** An example of `with()` for `g`, for messages. */
export function withExample(g: GenericKernel): string {
  const args = g.params.map((p) => `${p.name}: ${p.kind === "typeParam" ? `"${typeToString(p.allowed[0]!)}"` : p.type.name === "bool" ? "true" : "256"}`);
  return `${g.name}.with({ ${args.join(", ")} })`;
}

/** The instance of `g` that `args` (by parameter name) name; GK8005 when they do not fit its parameters. */
export function namedInstance(g: GenericKernel, args: GenericArgs): NamedInstance {
  const given = args !== null && typeof args === "object" ? args : {};
  const names = g.params.map((p) => p.name);
  for (const k of Object.keys(given)) {
    if (!names.includes(k)) throw invalid(`'${g.name}' has no generic parameter '${k}' (it takes ${genericParamList(g)})`);
  }
  const missing = names.filter((n) => !Object.hasOwn(given, n) || given[n] === undefined);
  if (missing.length) throw invalid(`'${g.name}' takes ${genericParamList(g)}: ${missing.map((n) => `'${n}'`).join(" and ")} missing, as in ${withExample(g)}`);
  return positional(g, names.map((n) => given[n]!));
}

/** The instance of `g` with arguments in parameter order. */
function positional(g: GenericKernel, values: readonly (string | number | bigint | boolean)[]): NamedInstance {
  const args = g.params.map((p, i): Extract<InstanceArg, { kind: "type" | "const" }> => {
    const v = values[i]!;
    if (p.kind === "typeParam") {
      const t = p.allowed.find((x) => typeToString(x) === v);
      if (!t) throw invalid(`${g.name}: ${p.name} is one of ${p.allowed.map((x) => `"${typeToString(x)}"`).join(", ")}, not ${typeof v === "string" ? `"${v}"` : String(v)}`);
      return { kind: "type", type: t };
    }
    const c = coerceScalar(p.type, v);
    if (!c.ok) {
      const want = p.type.name === "bool" ? "true or false" : `an integer of ${p.type.name}`;
      throw invalid(`${g.name}: ${p.name} takes ${want}, not ${typeof v === "string" ? `"${v}"` : String(v)}`);
    }
    return { kind: "const", type: p.type, value: c.value };
  });
  const request: InstanceRequest = { kernel: g.name, args: args.map((a) => (a.kind === "type" ? typeToString(a.type) : a.value)) };
  return { request, name: instanceSpelling(g.irName, args) };
}

/**
 * The instance a kernel name names (`"reduce<f32, 256>"`), when it is an instance's spelling
 * of one of the module's generic kernels; undefined for a plain name.
 */
export function instanceByName(ir: Module, text: string): NamedInstance | undefined {
  const parsed = parseInstanceSpelling(text);
  if (parsed === undefined) return undefined;
  if ("error" in parsed) throw invalid(parsed.error);
  const g = ir.generics?.find((x) => x.name === parsed.name || x.irName === parsed.name);
  if (!g) throw new GkRuntimeError("GK8009", `there is no generic kernel '${parsed.name}'${ir.generics?.length ? ` (generic kernels: ${ir.generics.map((x) => x.name).join(", ")})` : ""}`);
  if (parsed.args.length !== g.params.length) throw invalid(`'${g.name}' takes ${g.params.length} generic argument${g.params.length === 1 ? "" : "s"} ${genericParamList(g)}, but '${text}' gives ${parsed.args.length}`);
  return positional(g, parsed.args);
}

/**
 * A module of the instance alone (with the device functions it calls), checked from the
 * program's sources with the instance requested. Throws the checker's diagnostics as
 * `compileError` makes them (an instance can fail where its definition did not: a shared
 * array too large for its constants).
 */
export function instanceModule(ir: Module, sources: SourceMap, wanted: NamedInstance, compileError: (fe: ReturnType<typeof frontEnd>) => Error): Module {
  const texts = Object.fromEntries(sources.all().map((f) => [f.path, f.text]));
  const fe = frontEnd(ir.file, { host: memoryHost(texts), instances: [wanted.request] });
  if (!fe.ir || fe.diagnostics.some((d) => d.severity === "error")) throw compileError(fe);
  const kernel = fe.ir.kernels.find((k) => k.name === wanted.name);
  if (!kernel) throw new GkRuntimeError("GK8009", `the checker made no kernel '${wanted.name}'`);
  // The module's constant arrays and options come along: the instance may read the arrays, and flushes as the module does.
  return {
    file: fe.ir.file,
    ...(fe.ir.flushToZero && { flushToZero: true }),
    ...(fe.ir.constantArrays && { constantArrays: fe.ir.constantArrays }),
    kernels: [kernel],
    functions: calledBy(kernel, fe.ir.functions),
    structs: fe.ir.structs,
    constants: [],
    launches: [],
  };
}

/** The functions `k` calls, directly or not, in the module's order (callees first). */
function calledBy(k: Function, functions: readonly Function[]): Function[] {
  const byName = new Map(functions.map((f) => [f.name, f]));
  const reached = new Set<string>();
  const reach = (f: Function): void =>
    visit(f.body, {
      expr: (e) => {
        if (e.kind !== "call" || reached.has(e.callee)) return;
        reached.add(e.callee);
        const g = byName.get(e.callee);
        if (g) reach(g);
      },
    });
  reach(k);
  return functions.filter((f) => reached.has(f.name));
}
