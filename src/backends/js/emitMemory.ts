/**
 * Array accesses: loads, stores, atomics and local array declarations, each with its bounds
 * check, and the accesses of `inout`/`out` parameters. Global arrays, dynamic shared arrays
 * and views check against their length (hoisted into `name$n`), shared, local and constant
 * arrays check every index against its constant dimension and are stored flat, row-major. A
 * view reads element `name$o + i * name$s` of its array. Shared arrays may carry `name$w` and
 * start filled with a sentinel (`sentinelOf`), so that a read of an element no thread of the
 * block has written is reported (GK8013); through a view or a reference, whose memory the code
 * cannot know, the flags are the array's own `$w` property, where it has one.
 *
 * Order of evaluation: indices left to right, then the stored value or atomic operands, then
 * the check, then the access. bool elements are 0/1 bytes and f16/bf16 elements their bits
 * (src/ir/halves.ts): converted on load and store (`$.fromF16Bits`, `$.f16Bits`, ...).
 */
import { atomicBuiltin } from "../../ir/builtins.js";
import type { ArrayVar, AtomicExpr, Expr, LoadExpr, LocalArrayStmt, StoreStmt, ValueVar } from "../../ir/nodes.js";
import { asScalar, isHalf, memoryDims, memorySpace, type ScalarType } from "../../ir/types.js";
import { TYPED_ARRAY } from "../../ir/values.js";
import { invariant } from "../../util.js";
import { arrayName, isTrivial, newTemp, varName, zeroOf, type FnCtx } from "./context.js";
import { emitExpr } from "./emitExpr.js";
import type { Site } from "./sites.js";
import { fill } from "../../ir/templates.js";

/** An access's indices as code: assignments to temporaries, the test that they are in bounds, the flat offset. */
interface Indexing {
  readonly binds: string[];
  readonly inBounds: string;
  /** The flat element offset (a temporary or a trivial expression once `binds` ran). */
  readonly offset: string;
  /** The indices, for the message when they are out of bounds. */
  readonly report: string;
  /** The call that reports the indices out of bounds at `site`. */
  readonly fault: (site: number) => string;
}

function bindTo(ctx: FnCtx, code: string, binds: string[]): string {
  if (isTrivial(code)) return code;
  const t = newTemp(ctx);
  binds.push(`${t} = ${code}`);
  return t;
}

export function indexing(ctx: FnCtx, array: ArrayVar, indices: readonly Expr[]): Indexing {
  const name = arrayName(ctx, array);
  const t = array.type;
  const bounds = memoryDims(t).map((d) => (d === undefined ? `${name}$n` : String(d)));
  invariant(bounds.length === indices.length, `${array.name} indexed with ${indices.length} indices`);
  const binds: string[] = [];
  const refs: string[] = [];
  const tests: string[] = [];
  const reports: string[] = [];
  indices.forEach((ix, d) => {
    invariant(ix.type.kind === "scalar", "index is not a scalar");
    const bound = bounds[d]!;
    const code = bindTo(ctx, emitExpr(ctx, ix), binds);
    switch (ix.type.name) {
      case "i8":
      case "i16":
      case "i32":
        tests.push(`${code} >>> 0 < ${bound}`);
        refs.push(code);
        reports.push(code);
        return;
      case "u8":
      case "u16":
      case "u32":
        tests.push(`${code} < ${bound}`);
        refs.push(code);
        reports.push(code);
        return;
      case "i64":
      case "u64": {
        // Number() keeps the order of bigints, so the test is exact even where it rounds.
        const n = newTemp(ctx);
        binds.push(`${n} = Number(${code})`);
        tests.push(ix.type.name === "i64" ? `${n} >= 0 && ${n} < ${bound}` : `${n} < ${bound}`);
        refs.push(n);
        reports.push(code);
        return;
      }
      default:
        invariant(false, `index of type ${ix.type.name}`);
    }
  });
  let offset = refs[0]!;
  if (t.kind === "array") for (let d = 1; d < refs.length; d++) offset = `(${offset} * ${t.dims[d]} + ${refs[d]})`;
  if (t.kind === "view") offset = `(${name}$o + ${offset} * ${name}$s)`;
  const report = `[${reports.join(", ")}]`;
  const fault =
    t.kind === "view"
      ? (site: number) => `$sim.viewBounds(${site}, ${report}, ${name}$n, ${name}$o, ${name}$s, ${name}$v)`
      : (site: number) => `$sim.bounds(${site}, ${report}, ${t.kind === "array" ? "0" : `${name}$n`})`;
  return { binds, inBounds: tests.join(" && "), offset, report, fault };
}

/**
 * Where the written flags of an array's elements are, when reads of unwritten shared memory are
 * checked: `name$w` for shared memory, the array's `$w` property (undefined unless it is shared)
 * for a view; nothing for other memory.
 */
function flagsOf(ctx: FnCtx, array: ArrayVar): { readonly flags: string; readonly maybe: boolean } | undefined {
  if (!ctx.opts.checkUninitializedShared) return undefined;
  const space = memorySpace(array.type);
  const name = arrayName(ctx, array);
  if (space === "shared") return { flags: `${name}$w`, maybe: false };
  if (space === "any") return { flags: `${name}.$w`, maybe: true };
  return undefined;
}

function fromStored(t: ScalarType, code: string): string {
  switch (t.name) {
    case "bool": return `(${code} !== 0)`;
    case "f16": return `$.fromF16Bits(${code})`;
    case "bf16": return `$.fromBf16Bits(${code})`;
    default: return code;
  }
}

function toStored(t: ScalarType, code: string): string {
  switch (t.name) {
    case "bool": return `(${code} ? 1 : 0)`;
    case "f16": return `$.f16Bits(${code})`;
    case "bf16": return `$.bf16Bits(${code})`;
    default: return code;
  }
}
const seq = (parts: readonly string[]) => (parts.length === 1 ? parts[0]! : `(${parts.join(", ")})`);

function accessSite(ctx: FnCtx, site: Site): number {
  return ctx.sites.add(site);
}

/**
 * With the check of uninitialized shared memory on, a block's shared arrays start filled with
 * this value of the element type rather than zeros (`resetShared`, launchParts.ts), and `$w`
 * flags the elements written with it. A read that finds any other value needs no flag: the
 * element was written. Only a read that finds the sentinel looks at the flag, and only a
 * store of the sentinel sets one. (Floats use NaN, f16 and bf16 the bits of a NaN that no
 * store writes, since a NaN is stored as the quiet NaN of its sign; bools, stored as 0 or 1, use 2.)
 */
export function sentinelOf(t: ScalarType): string {
  switch (t.name) {
    case "f32":
    case "f64":
      return "NaN";
    case "f16":
      return "32257"; // 0x7e01
    case "bf16":
      return "32705"; // 0x7fc1
    case "bool":
      return "2";
    case "i8":
      return "(-86)";
    case "u8":
      return "170";
    case "i16":
      return "(-21846)";
    case "u16":
      return "43690";
    case "i32":
      return "(-1431655766)";
    case "u32":
      return "2863311530";
    case "i64":
      return "(-6148914691236517206n)";
    case "u64":
      return "12297829382473034410n";
  }
}

/** Whether `code` (a name) holds the sentinel of `t`, as stored. */
function isSentinel(t: ScalarType, code: string): string {
  return t.name === "f32" || t.name === "f64" ? `${code} !== ${code}` : `${code} === ${sentinelOf(t)}`;
}

/** A read of element `offset` of `container`, with the check of unwritten shared memory when `flags` says where its flags are. */
function checkedRead(ctx: FnCtx, container: string, offset: string, elem: ScalarType, flags: ReturnType<typeof flagsOf>, fault: string): string {
  if (!flags) return `${container}[${offset}]`;
  const o = isTrivial(offset) ? offset : newTemp(ctx);
  const at = o === offset ? o : `${o} = ${offset}`;
  const v = newTemp(ctx);
  const unwritten = `${isSentinel(elem, v)}${flags.maybe ? ` && ${flags.flags} !== undefined` : ""} && ${flags.flags}[${o}] === 0`;
  return `(${v} = ${container}[${at}], ${unwritten} ? ${fault} : ${v})`;
}

/**
 * A write of `value` (a name or a literal, as stored) to element `offset` of `container`,
 * flagging a stored sentinel: never for bools (stored as 0 or 1), f16 and bf16 (a NaN is
 * stored as the quiet NaN of its sign, never as the sentinel's bits).
 */
function flaggedWrite(ctx: FnCtx, container: string, offset: string, elem: ScalarType, value: string, flags: ReturnType<typeof flagsOf>): string {
  if (!flags || elem.name === "bool" || isHalf(elem)) return `${container}[${offset}] = ${value};`;
  const o = isTrivial(offset) ? offset : newTemp(ctx);
  const at = o === offset ? "" : `${o} = ${offset}; `;
  const guard = flags.maybe ? ` && ${flags.flags} !== undefined` : "";
  return `{ ${at}${container}[${o}] = ${value}; if (${isSentinel(elem, value)}${guard}) ${flags.flags}[${o}] = 1; }`;
}

export function emitLoad(ctx: FnCtx, e: LoadExpr): string {
  const site = accessSite(ctx, { kind: "access", access: "read", array: e.array, fn: ctx.fn.name, span: e.span });
  const ix = indexing(ctx, e.array, e.indices);
  const name = arrayName(ctx, e.array);
  const read = checkedRead(ctx, name, ix.offset, e.array.type.elem, flagsOf(ctx, e.array), `$sim.uninitialized(${site}, ${ix.report})`);
  const checked = `(${ix.inBounds} ? ${fromStored(e.type, read)} : ${ix.fault(site)})`;
  return seq([...ix.binds, checked]);
}

/** A store statement. */
export function emitStore(ctx: FnCtx, s: StoreStmt): string {
  const site = accessSite(ctx, { kind: "access", access: "write", array: s.array, fn: ctx.fn.name, span: s.span });
  const ix = indexing(ctx, s.array, s.indices);
  const value = bindTo(ctx, emitExpr(ctx, s.value), ix.binds);
  const name = arrayName(ctx, s.array);
  const elem = s.array.type.elem;
  const lines = ix.binds.map((b) => `${b};`);
  const write = flaggedWrite(ctx, name, ix.offset, elem, toStored(elem, value), flagsOf(ctx, s.array));
  lines.push(`if (${ix.inBounds}) ${write} else ${ix.fault(site)};`);
  return lines.join(" ");
}

/** An atomic read-modify-write; threads run one at a time, so it is a plain read and write. The value is the old element. */
export function emitAtomic(ctx: FnCtx, e: AtomicExpr): string {
  const entry = atomicBuiltin(e.op);
  const elem = e.array.type.elem;
  const tpl = entry.js[elem.name];
  invariant(tpl, `${entry.name} has no JavaScript implementation for ${elem.name}`);
  const site = accessSite(ctx, { kind: "atomic", op: e.op, builtin: entry.name, array: e.array, fn: ctx.fn.name, span: e.span });
  const ix = indexing(ctx, e.array, e.indices);
  const args = e.args.map((a) => bindTo(ctx, emitExpr(ctx, a), ix.binds));
  const name = arrayName(ctx, e.array);
  const space = memorySpace(e.array.type) === "global" ? "global" : "shared";
  const o = isTrivial(ix.offset) ? ix.offset : newTemp(ctx);
  const old = newTemp(ctx);
  const parts = [...ix.binds, `(${ix.inBounds}) || ${ix.fault(site)}`];
  if (o !== ix.offset) parts.push(`${o} = ${ix.offset}`);
  // The element as stored, and as a value (they differ for f16 and bf16: bits and number).
  const stored = isHalf(elem) ? newTemp(ctx) : old;
  parts.push(`${stored} = ${name}[${o}]`);
  if (stored !== old) parts.push(`${old} = ${fromStored(elem, stored)}`);
  // The old value and the operands are locals here, so the template may use them freely. In a
  // module that flushes f32 subnormals, atomicMin/Max compare them flushed (the min/max helper does).
  const flushing = ctx.opts.flushToZero && elem.name === "f32" && (e.op === "min" || e.op === "max");
  const update = toStored(elem, fill(tpl(space), flushing ? [`$.ftz32(${old})`, ...args.map((a) => `$.ftz32(${a})`)] : [old, ...args]));
  const flags = flagsOf(ctx, e.array);
  if (flags) {
    const next = newTemp(ctx);
    parts.push(
      `${isSentinel(elem, stored)} && ${flags.flags}[${o}] === 0 && $sim.uninitialized(${site}, ${ix.report})`,
      `${next} = ${update}`,
      `${name}[${o}] = ${next}`,
      `${isSentinel(elem, next)} && (${flags.flags}[${o}] = 1)`,
    );
  } else {
    parts.push(`${name}[${o}] = ${update}`);
  }
  parts.push(old);
  return `(${parts.join(", ")})`;
}

/** The constructor of the TypedArray that holds elements of type `t`. */
export function typedArrayOf(t: ScalarType): string {
  return TYPED_ARRAY[t.name].name;
}

/** A local array declaration: fresh zeros or the initializer, every time it runs. */
export function emitLocalArray(ctx: FnCtx, s: LocalArrayStmt): string {
  const t = s.array.type;
  invariant(t.kind === "array" && t.space === "local", `${s.array.name} is not a local array`);
  const name = arrayName(ctx, s.array);
  const size = t.dims.reduce((a, b) => a * b, 1);
  const alloc = `new ${typedArrayOf(t.elem)}(${size})`;
  const lines: string[] = [];
  if (ctx.mode === "generator" || ctx.perThread?.has(s.array.id)) {
    // Threads of a block interleave at barriers: each needs its own storage.
    lines.push(`const ${name} = ${alloc};`);
  } else {
    // A thread runs this function to completion before another starts: one storage will do.
    ctx.hoisted.push(`const ${name} = ${alloc};`);
    if (!s.init) lines.push(`${name}.fill(${zeroOf(t.elem)});`);
  }
  s.init?.forEach((v, i) => lines.push(`${name}[${i}] = ${toStored(t.elem, emitExpr(ctx, v))};`));
  return lines.join(" ");
}

// ---------------------------------------------------------------- references

/**
 * A read of an `inout` parameter: element `name$o` of the container `name` (the caller's
 * array, or a one-element box holding the caller's variable).
 */
export function emitRefRead(ctx: FnCtx, v: ValueVar): string {
  const name = varName(v);
  const t = asScalar(v.type);
  const flags = ctx.opts.checkUninitializedShared ? { flags: `${name}.$w`, maybe: true } : undefined;
  const site = flags ? accessSite(ctx, { kind: "ref", access: "read", param: v, fn: ctx.fn.name, span: v.span }) : -1;
  return fromStored(t, checkedRead(ctx, name, `${name}$o`, t, flags, `$sim.uninitialized(${site}, [])`));
}

/** A write of an `inout`/`out` parameter, as a statement. */
export function emitRefWrite(ctx: FnCtx, v: ValueVar, value: string): string {
  const name = varName(v);
  const t = asScalar(v.type);
  const flags = ctx.opts.checkUninitializedShared ? { flags: `${name}.$w`, maybe: true } : undefined;
  const binds: string[] = [];
  const stored = bindTo(ctx, toStored(t, value), binds);
  return [...binds.map((b) => `${b};`), flaggedWrite(ctx, name, `${name}$o`, t, stored, flags)].join(" ");
}
