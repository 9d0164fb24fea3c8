/**
 * The one printer for the IR (`gkc ir`, `gkc ir --after <pass>`, test goldens). Every
 * operator carries its type (`+.f32`), constants carry theirs (`2.5:f32`), casts are
 * explicit; a local whose name is declared more than once in a function prints as `name#id`.
 */
import { assertNever } from "../util.js";
import type { ArrayData, ArrayVar, CallArg, Expr, Function, Launch, Module, Param, PathStep, Stmt } from "./nodes.js";
import { laneName, typeToString, type ScalarValue, type ValueType } from "./types.js";
import type { Value } from "./composite.js";
import { pathText } from "./paths.js";
import { asyncCopyBuiltin, asyncGroupBuiltin } from "./asyncCopyBuiltins.js";
import { atomicTypeName } from "./atomicBuiltins.js";

const OPS: Record<string, string> = {
  add: "+", sub: "-", mul: "*", div: "/", rem: "%", shl: "<<", shr: ">>", and: "&", or: "|", xor: "^",
  eq: "==", ne: "!=", lt: "<", le: "<=", gt: ">", ge: ">=",
};
const AXES = ["x", "y", "z"];

export function printModule(m: Module): string {
  const parts: string[] = [];
  for (const t of m.structs) parts.push(`struct ${t.name} { ${t.fields.map((f) => `${f.name}: ${typeToString(f.type)} @${f.offset};`).join(" ")} } // ${t.size} bytes, align ${t.align}`);
  if (m.structs.length) parts.push("");
  if (m.flushToZero) parts.push("@flushToZero;", "");
  for (const c of m.constants) parts.push(`const ${c.name}: ${c.type.name} = ${value(c.value)};`);
  for (const a of m.constantArrays ?? []) parts.push(`constant ${a.name}: ${typeToString(a.type).replace(/^constant /, "")};`);
  if (m.constants.length || m.constantArrays?.length) parts.push("");
  for (const f of [...m.functions, ...m.kernels]) parts.push(printFunction(f), "");
  for (const l of m.launches) parts.push(printLaunch(l));
  return parts.join("\n").trimEnd() + "\n";
}

export function value(v: ScalarValue | Value): string {
  if (Array.isArray(v)) return `{${v.map(value).join(", ")}}`;
  if (typeof v === "number" && Object.is(v, -0)) return "-0";
  return String(v);
}

/** Names that occur for more than one variable get their id appended. */
function namer(f: Function): (v: { id: number; name: string }) => string {
  const counts = new Map<string, Set<number>>();
  const see = (v: { id: number; name: string }) => {
    const s = counts.get(v.name) ?? new Set<number>();
    s.add(v.id);
    counts.set(v.name, s);
  };
  f.params.forEach(see);
  f.shared.forEach(see);
  const walk = (stmts: readonly Stmt[]): void => {
    for (const s of stmts) {
      switch (s.kind) {
        case "let": see(s.var); break;
        case "localArray": see(s.array); break;
        case "if": walk(s.then); walk(s.else); break;
        case "loop": walk(s.init); walk(s.step); walk(s.body); break;
        case "block": walk(s.body); break;
        default: break;
      }
    }
  };
  walk(f.body);
  return (v) => ((counts.get(v.name)?.size ?? 1) > 1 ? `${v.name}#${v.id}` : v.name);
}

export function printFunction(f: Function): string {
  const name = namer(f);
  const param = (p: Param) => `${name(p)}: ${typeToString(p.type)}`;
  const head =
    f.kind === "kernel"
      ? `kernel ${f.name}(${f.params.map(param).join(", ")})`
      : `fn ${f.name}(${f.params.map(param).join(", ")}): ${typeToString(f.returnType)}`;
  const b = f.launchBounds;
  const annotation = b ? `@launchBounds(${b.maxThreads}${b.minBlocks !== undefined ? `, ${b.minBlocks}` : ""})` : f.maxRegisters !== undefined ? `@maxRegisters(${f.maxRegisters})` : undefined;
  const lines = [...(annotation ? [annotation] : []), `${head} {`];
  for (const s of f.shared) lines.push(`  shared ${name(s)}: ${typeToString(s.type.elem)}${s.type.kind === "array" ? s.type.dims.map((d) => `[${d}]`).join("") : "[]"};`);
  lines.push(...stmts(f.body, 1, name));
  lines.push("}");
  return lines.join("\n");
}

type Namer = (v: { id: number; name: string }) => string;

function stmts(list: readonly Stmt[], depth: number, name: Namer): string[] {
  return list.flatMap((s) => stmt(s, depth, name));
}

function stmt(s: Stmt, depth: number, name: Namer): string[] {
  const pad = "  ".repeat(depth);
  const e = (x: Expr) => bare(expr(x, name));
  switch (s.kind) {
    case "let":
      return [`${pad}${s.var.mutable ? "let" : "const"} ${name(s.var)}: ${typeToString(s.var.type)} = ${e(s.init)};`];
    case "localArray":
      return [`${pad}let ${name(s.array)}: ${typeToString(s.array.type)}${s.init ? ` = [${s.init.map(e).join(", ")}]` : ""};`];
    case "assign":
      return [`${pad}${name(s.var)}${pathText(s.var.type, s.path, e)} = ${e(s.value)};`];
    case "store":
      return [`${pad}${s.order ? `store.${s.order} ` : s.cache ? `store.${s.cache} ` : ""}${access(s.array, s.indices, s.path, s.vector, name)} = ${e(s.value)};`];
    case "expr":
      return [`${pad}${e(s.expr)};`];
    case "if": {
      const out = [`${pad}if (${e(s.cond)}) {`, ...stmts(s.then, depth + 1, name)];
      if (s.else.length) out.push(`${pad}} else {`, ...stmts(s.else, depth + 1, name));
      out.push(`${pad}}`);
      return out;
    }
    case "loop": {
      const out: string[] = [];
      const cond = s.cond ? e(s.cond) : "true";
      out.push(`${pad}${s.unroll === undefined ? "" : s.unroll === "full" ? "@unroll " : `@unroll(${s.unroll}) `}loop {`);
      if (s.init.length) out.push(`${pad}  init:`, ...stmts(s.init, depth + 2, name));
      out.push(`${pad}  ${s.testFirst ? "while" : "do-while"} ${cond}`);
      if (s.step.length) out.push(`${pad}  step:`, ...stmts(s.step, depth + 2, name));
      out.push(`${pad}  body:`, ...stmts(s.body, depth + 2, name), `${pad}}`);
      return out;
    }
    case "break":
    case "continue":
      return [`${pad}${s.kind};`];
    case "return":
      return [`${pad}return${s.value ? ` ${e(s.value)}` : ""};`];
    case "barrier":
      return [`${pad}barrier();`];
    case "fence":
      return [`${pad}${s.scope === "block" ? "threadfenceBlock" : "threadfence"}();`];
    case "asyncCopy": {
      // As written: the array (partly indexed), then its last index.
      const at = (a: ArrayVar, xs: readonly Expr[]) => `${a.name}${xs.slice(0, -1).map((x) => `[${e(x)}]`).join("")}, ${e(xs[xs.length - 1]!)}`;
      const valid = s.valid ? `, ${e(s.valid)}` : "";
      return [`${pad}${asyncCopyBuiltin(s.cache)}(${at(s.dst, s.dstIndices)}, ${at(s.src, s.srcIndices)}, ${s.bytes}${valid});`];
    }
    case "asyncGroup":
      return [`${pad}${asyncGroupBuiltin(s.op)}(${s.op === "wait" ? s.pending : ""});`];
    case "block":
      return [`${pad}{`, ...stmts(s.body, depth + 1, name), `${pad}}`];
  }
  return assertNever(s, "statement");
}

export function expr(x: Expr, name: Namer = (v) => v.name): string {
  const e = (y: Expr) => expr(y, name);
  switch (x.kind) {
    case "const":
      return `${value(x.value)}:${x.type.name}`;
    case "var":
      return name(x.var);
    case "special":
      return x.name === "laneId" ? x.name : `${x.name}.${AXES[x.axis]}`;
    case "unary":
      return `(${x.op === "neg" ? "-" : x.op === "not" ? "!" : "~"}.${typeToString(x.type)} ${e(x.operand)})`;
    case "binary":
      return `(${e(x.left)} ${OPS[x.op]}.${x.left.type.kind === "void" ? "?" : typeToString(x.left.type)} ${e(x.right)})`;
    case "logical":
      return `(${e(x.left)} ${x.op === "and" ? "&&" : "||"} ${e(x.right)})`;
    case "select":
      return `(${e(x.cond)} ? ${e(x.ifTrue)} : ${e(x.ifFalse)})`;
    case "cast":
      return `${typeToString(x.type)}(${bare(e(x.operand))})`;
    case "bitcast":
      return `bitcast<${typeToString(x.type)}>(${bare(e(x.operand))})`;
    case "load": {
      const element = access(x.array, x.indices, x.path, x.vector, name);
      return x.order ? `load.${x.order}(${element})` : x.cache ? `load.${x.cache}(${element})` : element;
    }
    case "call":
      return `${x.callee}(${x.args.map((a: CallArg) => callArg(a, name)).join(", ")})`;
    case "builtin":
      return `${x.name}.${typeToString(x.type)}(${x.args.map((a) => bare(e(a))).join(", ")})`;
    case "atomic":
      return `atomic_${x.op}.${atomicTypeName(x.type)}(${name(x.array)}${x.indices.map((i) => `[${bare(e(i))}]`).join("")}, ${x.args.map(e).join(", ")})`;
    case "warp":
      return `${x.op}${x.type.kind === "scalar" ? `.${x.type.name}` : ""}(${x.args.map((a) => bare(e(a))).join(", ")})`;
    case "member":
      return `${e(x.operand)}${pathText(x.operand.type as ValueType, x.path, (i) => bare(e(i)))}`;
    case "construct":
      return `${typeToString(x.type)}{${x.args.map((a) => bare(e(a))).join(", ")}}`;
    case "swizzle":
      return `${e(x.operand)}.${x.lanes.map(laneName).join("")}`;
    case "zero":
      return `zero.${typeToString(x.type)}`;
  }
  return assertNever(x, "expression");
}

/** `a[i][j]`, `a[i].pos.x`, or a vector access of a scalar array `a[i..+4]`. */
function access(array: ArrayVar, indices: readonly Expr[], path: readonly PathStep[], vector: 2 | 4 | 8 | null, name: Namer): string {
  const e = (y: Expr) => bare(expr(y, name));
  const text = `${name(array)}${indices.map((i) => `[${e(i)}]`).join("")}${pathText(array.type.elem, path, e)}`;
  return vector ? `${text.slice(0, -1)}..+${vector}]` : text;
}

function callArg(a: CallArg, name: Namer): string {
  const e = (y: Expr) => bare(expr(y, name));
  switch (a.kind) {
    case "arrayArg":
      return name(a.array);
    case "varRef":
      return `&${name(a.var)}`;
    case "elemRef":
      return `&${name(a.array)}${a.indices.map((i) => `[${e(i)}]`).join("")}`;
    case "viewArg":
      return `view(${[name(a.array), e(a.offset), a.length ? e(a.length) : "..", ...(a.stride ? [e(a.stride)] : [])].join(", ")})`;
    default:
      return e(a);
  }
}

/** An expression's text without the parentheses that surround it as a whole. */
function bare(text: string): string {
  if (!text.startsWith("(") || !text.endsWith(")")) return text;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    if (depth === 0 && i < text.length - 1) return text;
  }
  return text.slice(1, -1);
}

function data(d: ArrayData): string {
  switch (d.kind) {
    case "values": return `[${d.values.map((v) => value(v)).join(", ")}]`;
    case "zeros": return `zeros(${d.length})`;
    case "fill": return `fill(${d.length}, ${value(d.value)})`;
    case "iota": return `iota(${d.length})`;
    case "rand": return `rand(${d.length}, ${d.seed}, ${d.lo}, ${d.hi})`;
  }
}

export function printLaunch(l: Launch): string {
  const args = l.args.map((a) => (a.kind === "value" ? `${a.param} = ${value(a.value)}:${typeToString(a.type)}` : `${a.param} = ${data(a.data)}:${typeToString(a.elem)}[]`));
  args.push(...l.constants.map((c) => `${c.name} = ${data(c.data)}:constant ${typeToString(c.elem)}[]`));
  const shared = l.sharedLengths.length ? ` shared(${l.sharedLengths.join(", ")})` : "";
  return `launch ${l.kernel}(${args.join(", ")}) grid(${l.grid.join(", ")}) block(${l.block.join(", ")})${shared};`;
}
