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
 * Order of evaluation: indices left to right, then the path's indices, then the stored value
 * or atomic operands, then the checks, then the access. bool elements are 0/1 bytes and
 * f16/bf16 elements their bits (src/ir/halves.ts): converted on load and store
 * (`$.fromF16Bits`, `$.f16Bits`, ...). Arrays of vectors and structs, paths into elements,
 * and vector accesses of arrays of scalars are written with layout.ts.
 *
 * In race mode (GenOptions.checkRaces) an access of global or shared memory first tells the
 * detector (`$race`, src/runtime/sim/races.ts) about it, once it is known to be in bounds:
 * `$race.r(name$r, offset, site)` for a read, `.w` for a write, `.a` for an atomic, `.la`
 * `.lv` `.sr` `.sv` for the ordered loads and stores, `.rn` `.wn` for the elements of a
 * vector or struct access; `name$r` is the array's shadow (undefined for local memory).
 */
import { atomicTypeName } from "../../ir/atomicBuiltins.js";
import { atomicBuiltin } from "../../ir/builtins.js";
import type { ArrayVar, AtomicExpr, Expr, LoadExpr, LocalArrayStmt, PathStep, StoreStmt, ValueVar } from "../../ir/nodes.js";
import { asScalar, isHalf, memoryDims, memorySpace, sizeOf, type ArrayType, type ScalarType, type ValueType, type VoidType } from "../../ir/types.js";
import { TYPED_ARRAY } from "../../ir/values.js";
import { stepType } from "../../ir/paths.js";
import { invariant } from "../../util.js";
import { arrayName, isTrivial, newTemp, varName, type FnCtx } from "./context.js";
import { emitExpr } from "./emitExpr.js";
import { allocate, holdingOf, indexIn, memOf, plus, readValue, withTerm, writeValue, zeroFill, type Addr } from "./layout.js";
import type { Site } from "./sites.js";
import { fill } from "../../ir/templates.js";
import { asyncCheck, asyncSourceWrite, asyncStates, type AsyncStates } from "./emitAsync.js";

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

export function bindTo(ctx: FnCtx, code: string, binds: string[]): string {
  if (isTrivial(code)) return code;
  const t = newTemp(ctx);
  binds.push(`${t} = ${code}`);
  return t;
}

/** One index: bound to a name, its test against `bound` (exclusive), the number to compute with, and what to report. */
function indexTest(ctx: FnCtx, ix: Expr, bound: string, binds: string[]): { test: string; ref: string; report: string } {
  invariant(ix.type.kind === "scalar", "index is not a scalar");
  const code = bindTo(ctx, emitExpr(ctx, ix), binds);
  switch (ix.type.name) {
    case "i8":
    case "i16":
    case "i32":
      return { test: `${code} >>> 0 < ${bound}`, ref: code, report: code };
    case "u8":
    case "u16":
    case "u32":
      return { test: `${code} < ${bound}`, ref: code, report: code };
    case "i64":
    case "u64": {
      // Number() keeps the order of bigints, so the test is exact even where it rounds.
      const n = newTemp(ctx);
      binds.push(`${n} = Number(${code})`);
      return { test: ix.type.name === "i64" ? `${n} >= 0 && ${n} < ${bound}` : `${n} < ${bound}`, ref: n, report: code };
    }
    default:
      return invariant(false, `index of type ${ix.type.name}`) as never;
  }
}

/** `span`: a vector access reads that many elements from the last index on, which must all be in bounds. */
export function indexing(ctx: FnCtx, array: ArrayVar, indices: readonly Expr[], span = 1): Indexing {
  const name = arrayName(ctx, array);
  const t = array.type;
  const bounds = memoryDims(t).map((d) => (d === undefined ? `${name}$n` : String(d)));
  invariant(bounds.length === indices.length, `${array.name} indexed with ${indices.length} indices`);
  const binds: string[] = [];
  const refs: string[] = [];
  const tests: string[] = [];
  const reports: string[] = [];
  indices.forEach((ix, d) => {
    const last = d === indices.length - 1 && span > 1;
    const bound = last ? (memoryDims(t)[d] === undefined ? `(${bounds[d]} - ${span - 1})` : String(Number(bounds[d]) - (span - 1))) : bounds[d]!;
    const r = indexTest(ctx, ix, bound, binds);
    tests.push(r.test);
    refs.push(r.ref);
    reports.push(r.report);
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
export function flagsOf(ctx: FnCtx, array: ArrayVar): { readonly flags: string; readonly maybe: boolean } | undefined {
  if (!ctx.opts.checkUninitializedShared) return undefined;
  const space = memorySpace(array.type);
  const name = arrayName(ctx, array);
  if (space === "shared") return { flags: `${name}$w`, maybe: false };
  if (space === "any") return { flags: `${name}.$w`, maybe: true };
  return undefined;
}

/** The array's shadow in race mode (its `$r`), or undefined: race mode is off, or the memory is local or constant. */
function raceShadow(ctx: FnCtx, array: ArrayVar): string | undefined {
  if (!ctx.opts.checkRaces) return undefined;
  const space = memorySpace(array.type);
  if (space === "local" || space === "constant") return undefined;
  // A kernel's readonly array is written by no argument of the launch (aliasing.ts): it cannot race.
  // (A device_fn's readonly parameter may be given an array the kernel writes: it is followed.)
  if (array.type.kind === "global" && array.type.readonly && ctx.fn.kind === "kernel") return undefined;
  return `${arrayName(ctx, array)}$r`;
}

const LOAD_HOOK = { plain: "r", acquire: "la", volatile: "lv" } as const;
const STORE_HOOK = { plain: "w", release: "sr", volatile: "sv" } as const;

export function fromStored(t: ScalarType, code: string): string {
  switch (t.name) {
    case "bool": return `(${code} !== 0)`;
    case "f16": return `$.fromF16Bits(${code})`;
    case "bf16": return `$.fromBf16Bits(${code})`;
    default: return code;
  }
}

export function toStored(t: ScalarType, code: string): string {
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
function isSentinel(t: ScalarType, code: string, bits?: BitsView): string {
  if (bits === "i32" || bits === "u32") return `((${code} & 0x7f800000) === 0x7f800000 && (${code} & 0x7fffff) !== 0)`;
  if (bits) return `((${code} & 0x7ff0000000000000n) === 0x7ff0000000000000n && (${code} & 0xfffffffffffffn) !== 0n)`;
  return t.name === "f32" || t.name === "f64" ? `${code} !== ${code}` : `${code} === ${sentinelOf(t)}`;
}

/** A read of element `offset` of `container`, with the check of unwritten shared memory when `flags` says where its flags are. */
function checkedRead(ctx: FnCtx, container: string, offset: string, elem: ScalarType, flags: ReturnType<typeof flagsOf>, fault: string, bits?: BitsView): string {
  if (!flags) return `${container}[${offset}]`;
  const o = isTrivial(offset) ? offset : newTemp(ctx);
  const at = o === offset ? o : `${o} = ${offset}`;
  const v = newTemp(ctx);
  const unwritten = `${isSentinel(elem, v, bits)}${flags.maybe ? ` && ${flags.flags} !== undefined` : ""} && ${flags.flags}[${o}] === 0`;
  return `(${v} = ${container}[${at}], ${unwritten} ? ${fault} : ${v})`;
}

/**
 * A write of `value` (a name or a literal, as stored) to element `offset` of `container`,
 * flagging a stored sentinel: never for bools (stored as 0 or 1), f16 and bf16 (a NaN is
 * stored as the quiet NaN of its sign, never as the sentinel's bits).
 */
function flaggedWrite(ctx: FnCtx, container: string, offset: string, elem: ScalarType, value: string, flags: ReturnType<typeof flagsOf>, bits?: BitsView): string {
  if (!flags || elem.name === "bool" || isHalf(elem)) return `${container}[${offset}] = ${value};`;
  const o = isTrivial(offset) ? offset : newTemp(ctx);
  const at = o === offset ? "" : `${o} = ${offset}; `;
  const guard = flags.maybe ? ` && ${flags.flags} !== undefined` : "";
  return `{ ${at}${container}[${o}] = ${value}; if (${isSentinel(elem, value, bits)}${guard}) ${flags.flags}[${o}] = 1; }`;
}

export function emitLoad(ctx: FnCtx, e: LoadExpr, bits?: BitsView): string {
  if (e.vector !== null || e.path.length > 0 || holdingOf(e.array.type.elem) !== "scalars") return emitLoadValue(ctx, e);
  const site = accessSite(ctx, { kind: "access", access: "read", array: e.array, fn: ctx.fn.name, span: e.span });
  const ix = indexing(ctx, e.array, e.indices);
  const name = arrayName(ctx, e.array);
  const shadow = raceShadow(ctx, e.array);
  const states = asyncStates(ctx, e.array);
  const offset = shadow || states ? bindTo(ctx, ix.offset, ix.binds) : ix.offset;
  const container = bits ? `$.bitsOf(${name}, "${bits}")` : name;
  const read = checkedRead(ctx, container, offset, e.array.type.elem as ScalarType, flagsOf(ctx, e.array), `$sim.uninitialized(${site}, ${ix.report})`, bits);
  const value = bits ? read : fromStored(e.type as ScalarType, read);
  const raced = withAsync(states, offset, 1, site, false, shadow ? `($race.${LOAD_HOOK[e.order ?? "plain"]}(${shadow}, ${offset}, ${site}), ${value})` : value);
  const checked = `(${ix.inBounds} ? ${raced} : ${ix.fault(site)})`;
  return seq([...ix.binds, checked]);
}

/** `value` after the check of the asynchronous copies' states, where the array has them. */
function withAsync(states: AsyncStates | undefined, offset: string, n: number, site: number, write: boolean, value: string): string {
  return states ? `(${asyncCheck(states, offset, n, site, write)}, ${value})` : value;
}

/**
 * The integer view through which a plain scalar access of an f32 or f64 element moves its bits
 * (`$.bitsOf`, src/ir/jsrt.ts): `bitcast<u32>(x[i])`, `y[i] = bitcast<f64>(u)`. The simulator
 * holds a float as a JavaScript number, which makes a signaling NaN quiet; through the view a
 * bitcast straight from or into memory keeps every bit, as the GPU does.
 */
export type BitsView = "i32" | "u32" | "i64" | "u64";

/** The view for a bitcast between an array's elements of type `elem` and values of type `other`, when they are f32/f64 and the integer of its width. */
export function bitsView(elem: ValueType, other: ValueType | VoidType): BitsView | undefined {
  if (elem.kind !== "scalar" || other.kind !== "scalar") return undefined;
  const width = elem.name === "f32" ? ["i32", "u32"] : elem.name === "f64" ? ["i64", "u64"] : [];
  return width.includes(other.name) ? (other.name as BitsView) : undefined;
}

/** `bitcast<I>(a[i])` read through the bits view, or undefined where the load is not a plain scalar load of such an element (the general bitcast then applies). */
export function emitLoadBits(ctx: FnCtx, e: LoadExpr, to: ValueType): string | undefined {
  const bits = bitsView(e.array.type.elem, to);
  if (!bits || e.vector !== null || e.path.length > 0) return undefined;
  return emitLoad(ctx, e, bits);
}

/** A store statement. */
export function emitStore(ctx: FnCtx, s: StoreStmt): string {
  if (s.vector !== null || s.path.length > 0 || holdingOf(s.array.type.elem) !== "scalars") return emitStoreValue(ctx, s);
  const site = accessSite(ctx, { kind: "access", access: "write", array: s.array, fn: ctx.fn.name, span: s.span });
  const ix = indexing(ctx, s.array, s.indices);
  const shadow = raceShadow(ctx, s.array);
  const states = asyncStates(ctx, s.array);
  const copied = ctx.analysis.asyncCopies && !states;
  // `a[i] = bitcast<f32>(u)`: u's bits go straight into the element (BitsView), where nothing else watches the write.
  const bits = s.value.kind === "bitcast" && !shadow && !states && !copied ? bitsView(s.array.type.elem, s.value.operand.type) : undefined;
  const value = bindTo(ctx, emitExpr(ctx, bits && s.value.kind === "bitcast" ? s.value.operand : s.value), ix.binds);
  const name = bits ? `$.bitsOf(${arrayName(ctx, s.array)}, "${bits}")` : arrayName(ctx, s.array);
  const elem = s.array.type.elem as ScalarType;
  const offset = shadow || states || copied ? bindTo(ctx, ix.offset, ix.binds) : ix.offset;
  const lines = ix.binds.map((b) => `${b};`);
  const write = flaggedWrite(ctx, name, offset, elem, bits ? value : toStored(elem, value), flagsOf(ctx, s.array), bits);
  const source = copied ? asyncSourceWrite(ctx, s.array, offset, 1, site) : undefined;
  const pending = states ? `${asyncCheck(states, offset, 1, site, true)}; ` : source ? `${source}; ` : "";
  const raced = shadow ? `{ ${pending}$race.${STORE_HOOK[s.order ?? "plain"]}(${shadow}, ${offset}, ${site}, ${name}, ${toStored(elem, value)}); ${write} }` : pending ? `{ ${pending}${write} }` : write;
  lines.push(`if (${ix.inBounds}) ${raced} else ${ix.fault(site)};`);
  return lines.join(" ");
}

/** An atomic read-modify-write; threads run one at a time, so it is a plain read and write. The value is the old element. */
export function emitAtomic(ctx: FnCtx, e: AtomicExpr): string {
  if (e.type.kind === "vector") return emitVectorAtomic(ctx, e);
  const entry = atomicBuiltin(e.op);
  const elem = e.array.type.elem as ScalarType;
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
  const states = asyncStates(ctx, e.array);
  if (states) parts.push(asyncCheck(states, o, 1, site, true));
  const source = asyncSourceWrite(ctx, e.array, o, 1, site);
  if (source) parts.push(source);
  const shadow = raceShadow(ctx, e.array);
  if (shadow) parts.push(`$race.a(${shadow}, ${o}, ${site})`);
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

/**
 * An atomic on a vector element (atomicAdd on f16x2, bf16x2: AtomicRule.vectors): the element
 * read and written through layout.ts, each lane's new value by the lane type's template. The
 * GPU makes each lane atomic on its own; threads here run one at a time, so the whole element
 * is updated at once, which is one of the orders the GPU may take.
 */
function emitVectorAtomic(ctx: FnCtx, e: AtomicExpr): string {
  const entry = atomicBuiltin(e.op);
  const vec = e.type;
  invariant(vec.kind === "vector", "a vector atomic of a scalar");
  const tpl = entry.js[vec.elem.name];
  invariant(tpl && entry.rule.vectors?.some((v) => v === atomicTypeName(vec)), `${entry.name} has no JavaScript implementation for ${atomicTypeName(vec)}`);
  const site = accessSite(ctx, { kind: "atomic", op: e.op, builtin: entry.name, array: e.array, fn: ctx.fn.name, span: e.span });
  const ix = indexing(ctx, e.array, e.indices);
  const binds = [...ix.binds];
  const args = e.args.map((a) => bindTo(ctx, emitExpr(ctx, a), binds));
  const o = bindTo(ctx, ix.offset, binds);
  const space = memorySpace(e.array.type) === "global" ? "global" : "shared";
  const parts = [...binds, `(${ix.inBounds}) || ${ix.fault(site)}`];
  const states = asyncStates(ctx, e.array);
  if (states) parts.push(asyncCheck(states, o, 1, site, true));
  const source = asyncSourceWrite(ctx, e.array, o, 1, site);
  if (source) parts.push(source);
  const shadow = raceShadow(ctx, e.array);
  if (shadow) parts.push(`$race.a(${shadow}, ${o}, ${site})`);
  const m = memOf(ctx, e.array, sharedFlags(ctx, e.array), site, ix.report);
  const addr = elementAddr(vec, o);
  const old = newTemp(ctx);
  const next = newTemp(ctx);
  parts.push(`${old} = ${readValue(ctx, m, vec, addr, sentinelOf)}`);
  const lanes = Array.from({ length: vec.lanes }, (_, k) => fill(tpl(space), [`${old}[${k}]`, ...args.map((a) => `${a}[${k}]`)]));
  parts.push(`${next} = [${lanes.join(", ")}]`);
  // Lane by lane, as layout.ts writes a vector; a stored f16/bf16 is never the unwritten
  // sentinel (a NaN is stored as the quiet NaN of its sign), so no written flag is set.
  invariant(isHalf(vec.elem), `a vector atomic on ${atomicTypeName(vec)}`);
  const w = sizeOf(vec.elem);
  for (let k = 0; k < vec.lanes; k++) parts.push(`${m.name}[${indexIn(plus(addr, k * w), w)}] = ${toStored(vec.elem, `${next}[${k}]`)}`);
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
  const alloc = allocate(t.elem, size);
  const lines: string[] = [];
  if (ctx.mode === "generator" || ctx.perThread?.has(s.array.id)) {
    // Threads of a block interleave at barriers: each needs its own storage.
    lines.push(`const ${name} = ${alloc};`);
  } else {
    // A thread runs this function to completion before another starts: one storage will do.
    ctx.hoisted.push(`const ${name} = ${alloc};`);
    if (!s.init) lines.push(zeroFill(name, t.elem));
  }
  const elem = t.elem;
  if (elem.kind === "scalar") s.init?.forEach((v, i) => lines.push(`${name}[${i}] = ${toStored(elem, emitExpr(ctx, v))};`));
  else {
    const m = memOf(ctx, s.array, false, -1, "[]");
    s.init?.forEach((v, i) => {
      const value = newTemp(ctx);
      lines.push(`${value} = ${emitExpr(ctx, v)};`, ...writeValue(ctx, m, elem, { terms: [], bytes: i * sizeOf(elem) }, value, sentinelOf));
    });
  }
  return lines.join(" ");
}

// ---------------------------------------------------------------- arrays of vectors and structs, paths, vector accesses

/** The byte address of element `offset` (a name) of an array of `elem`. */
function elementAddr(elem: ValueType, offset: string): Addr {
  return { terms: [{ code: offset, bytes: sizeOf(elem) }], bytes: 0 };
}

/**
 * A path into a value of type `t` at `a`: the address it leads to and its type. Array-field
 * indices are evaluated into `binds` (in order) and their tests pushed to `tests`, each a
 * complete check that reports the index (GK8001) when it fails.
 */
function pathAddr(ctx: FnCtx, t: ValueType | ArrayType, a: Addr, path: readonly PathStep[], binds: string[], tests: string[], span: Site["span"]): { addr: Addr; type: ValueType | ArrayType } {
  let cur = t;
  let addr = a;
  for (const step of path) {
    if (step.kind === "field") {
      invariant(cur.kind === "struct", "a field of a non-struct");
      addr = plus(addr, cur.fields[step.field]!.offset);
    } else if (step.kind === "lane") {
      invariant(cur.kind === "vector", "a lane of a non-vector");
      addr = plus(addr, step.lane * sizeOf(cur.elem));
    } else {
      invariant(cur.kind === "array", "an element of a non-array");
      const at = cur;
      const refs = fieldIndices(ctx, at, step.indices, binds, tests, span);
      const size = sizeOf(at.elem);
      refs.forEach((r, d) => (addr = withTerm(addr, r, size * at.dims.slice(d + 1).reduce((x, y) => x * y, 1))));
    }
    cur = stepType(cur, step);
  }
  return { addr, type: cur };
}

/** The indices of an array field, bound to names, each with its check against its dimension. */
export function fieldIndices(ctx: FnCtx, t: ArrayType, indices: readonly Expr[], binds: string[], tests: string[], span: Site["span"]): string[] {
  const site = ctx.sites.add({ kind: "field", type: t, fn: ctx.fn.name, span });
  const checks = indices.map((ix, d) => indexTest(ctx, ix, String(t.dims[d]), binds));
  tests.push(`((${checks.map((c) => c.test).join(" && ")}) || $sim.bounds(${site}, [${checks.map((c) => c.report).join(", ")}], 0))`);
  return checks.map((c) => c.ref);
}

/**
 * Whether a layout access (layout.ts) of `array` keeps `name$w` flags: for shared memory, of a
 * fixed size or dynamic (whose arrays hold scalars, GK2042, and are vector-accessed by
 * load4/store4). Views hold only scalars (GK2044) and are never vector-accessed (GK2046), so no
 * layout access reaches them.
 */
function sharedFlags(ctx: FnCtx, array: ArrayVar): boolean {
  const flags = flagsOf(ctx, array);
  invariant(!flags?.maybe, `a layout access of ${array.name} (${array.type.kind})`);
  return flags !== undefined;
}

/** `($b..., test && test && ..., value)`: binds, then every check (each reports when it fails), then the value. */
export function checkedSeq(binds: readonly string[], tests: readonly string[], value: string): string {
  return `(${[...binds, ...tests, value].join(", ")})`;
}

/** A load of a vector or struct element, of part of an element, or a vector load of an array of scalars. */
function emitLoadValue(ctx: FnCtx, e: LoadExpr): string {
  const site = accessSite(ctx, { kind: "access", access: "read", array: e.array, fn: ctx.fn.name, span: e.span });
  const lanes = e.vector ?? 1;
  const ix = indexing(ctx, e.array, e.indices, lanes);
  const binds = [...ix.binds];
  const o = bindTo(ctx, ix.offset, binds);
  const tests = [`((${ix.inBounds}) || ${ix.fault(site)})`];
  const elem = e.array.type.elem;
  const m = memOf(ctx, e.array, sharedFlags(ctx, e.array), site, ix.report);
  // Race mode follows a vector access lane by lane, and a part of an element as the whole element.
  const shadow = raceShadow(ctx, e.array);
  const states = asyncStates(ctx, e.array);
  const race = () => [...(states ? [asyncCheck(states, o, lanes, site, false)] : []), ...(shadow ? [`$race.rn(${shadow}, ${o}, ${lanes}, ${site})`] : [])];
  if (e.vector !== null) {
    invariant(elem.kind === "scalar" && e.type.kind === "vector", "a vector load of an array of non-scalars");
    tests.push(`(${o} % ${lanes} === 0 || $sim.misaligned(${site}, ${ix.report}, ${lanes}))`);
    return checkedSeq(binds, [...tests, ...race()], readValue(ctx, m, e.type, elementAddr(elem, o), sentinelOf));
  }
  const { addr, type } = pathAddr(ctx, elem, elementAddr(elem, o), e.path, binds, tests, e.span);
  return checkedSeq(binds, [...tests, ...race()], readValue(ctx, m, type, addr, sentinelOf));
}

/** A store of a vector or struct element, of part of an element, or a vector store into an array of scalars. */
function emitStoreValue(ctx: FnCtx, s: StoreStmt): string {
  const site = accessSite(ctx, { kind: "access", access: "write", array: s.array, fn: ctx.fn.name, span: s.span });
  const lanes = s.vector ?? 1;
  const ix = indexing(ctx, s.array, s.indices, lanes);
  const binds = [...ix.binds];
  const o = bindTo(ctx, ix.offset, binds);
  const tests: string[] = [];
  const elem = s.array.type.elem;
  const m = memOf(ctx, s.array, sharedFlags(ctx, s.array), site, ix.report);
  let addr = elementAddr(elem, o);
  let type: ValueType | ArrayType = s.vector !== null ? (s.value.type as ValueType) : elem;
  if (s.vector !== null) tests.push(`(${o} % ${lanes} === 0 || $sim.misaligned(${site}, ${ix.report}, ${lanes}))`);
  else ({ addr, type } = pathAddr(ctx, elem, addr, s.path, binds, tests, s.span));
  const value = newTemp(ctx);
  binds.push(`${value} = ${emitExpr(ctx, s.value)}`);
  const writes = writeValue(ctx, m, type, addr, value, sentinelOf);
  const shadow = raceShadow(ctx, s.array);
  if (shadow) writes.unshift(`$race.wn(${shadow}, ${o}, ${lanes}, ${site});`);
  const states = asyncStates(ctx, s.array);
  if (states) writes.unshift(`${asyncCheck(states, o, lanes, site, true)};`);
  const source = asyncSourceWrite(ctx, s.array, o, lanes, site);
  if (source) writes.unshift(`${source};`);
  const checks = tests.length ? `if (${tests.map((t) => `(${t})`).join(" && ")}) ` : "";
  return `${binds.map((b) => `${b};`).join(" ")} if (${ix.inBounds}) { ${checks}{ ${writes.join(" ")} } } else ${ix.fault(site)};`;
}

// ---------------------------------------------------------------- references

/**
 * A read of an `inout` parameter: element `name$o` of the container `name` (the caller's
 * array, or a one-element box holding the caller's variable).
 */
export function emitRefRead(ctx: FnCtx, v: ValueVar, span: Site["span"] = v.span): string {
  const name = varName(v);
  const t = asScalar(v.type);
  const flags = ctx.opts.checkUninitializedShared ? { flags: `${name}.$w`, maybe: true } : undefined;
  const site = flags ? accessSite(ctx, { kind: "ref", access: "read", param: v, fn: ctx.fn.name, span: v.span }) : -1;
  let read = fromStored(t, checkedRead(ctx, name, `${name}$o`, t, flags, `$sim.uninitialized(${site}, [])`));
  if (ctx.analysis.asyncCopies) read = `($async.ref(${name}, ${name}$o, ${accessSite(ctx, { kind: "ref", access: "read", param: v, fn: ctx.fn.name, span })}, false), ${read})`;
  if (!ctx.opts.checkRaces) return read;
  // The reference's container is an array of global or shared memory, or a box (no shadow); a race names the read's place.
  const raceSite = accessSite(ctx, { kind: "ref", access: "read", param: v, fn: ctx.fn.name, span });
  return `($race.r($race.of(${name}), ${name}$o, ${raceSite}), ${read})`;
}

/** A write of an `inout`/`out` parameter, as a statement. */
export function emitRefWrite(ctx: FnCtx, v: ValueVar, value: string, span: Site["span"] = v.span): string {
  const name = varName(v);
  const t = asScalar(v.type);
  const flags = ctx.opts.checkUninitializedShared ? { flags: `${name}.$w`, maybe: true } : undefined;
  const binds: string[] = [];
  const stored = bindTo(ctx, toStored(t, value), binds);
  if (ctx.analysis.asyncCopies) binds.push(`$async.ref(${name}, ${name}$o, ${accessSite(ctx, { kind: "ref", access: "write", param: v, fn: ctx.fn.name, span })}, true)`);
  if (ctx.opts.checkRaces) {
    const site = accessSite(ctx, { kind: "ref", access: "write", param: v, fn: ctx.fn.name, span });
    binds.push(`$race.w($race.of(${name}), ${name}$o, ${site}, ${name}, ${stored})`);
  }
  return [...binds.map((b) => `${b};`), flaggedWrite(ctx, name, `${name}$o`, t, stored, flags)].join(" ");
}
