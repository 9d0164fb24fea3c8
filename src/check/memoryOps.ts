/**
 * The memory-ordering builtins (src/ir/memoryBuiltins.ts): `loadAcquire(a, i)` and
 * `loadVolatile(a, i)` are loads with an ordering; `storeRelease(a, i, v)`,
 * `storeVolatile(a, i, v)` and the fences are statements. The element is named as for atomics:
 * an array of global or shared memory, partly indexed for a 2-D shared one, and the last index.
 */
import type * as ast from "../parser/ast.js";
import type { MemoryEntry } from "../ir/builtins.js";
import type { Expr, LoadOrder, Stmt, StoreOrder } from "../ir/nodes.js";
import { memorySpace, typeToString } from "../ir/types.js";
import { tyName, type FnCtx, type ValueExpr } from "./context.js";
import { checkAs } from "./expr.js";
import { arrayBase, checkIndices, readonlyWrite } from "./memory.js";
import type { ArrayVar } from "../ir/nodes.js";

const LOAD_ORDER: Partial<Record<MemoryEntry["rule"]["op"], LoadOrder>> = { loadAcquire: "acquire", loadVolatile: "volatile" };
const STORE_ORDER: Partial<Record<MemoryEntry["rule"]["op"], StoreOrder>> = { storeRelease: "release", storeVolatile: "volatile" };

function arity(ctx: FnCtx, e: ast.CallExpr, n: number, shape: string): boolean {
  if (e.args.length === n) return true;
  ctx.log.error("GK3004", e.span, `${e.callee.name}() takes ${n === 0 ? "no arguments" : `${n} arguments: ${shape}`}, but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
  return false;
}

/** The element `(a, i)` a load or store names: an array of global or shared memory of an element type the builtin takes. */
function element(ctx: FnCtx, e: ast.CallExpr, b: MemoryEntry, write: boolean): { array: ArrayVar; indices: ValueExpr[] } | undefined {
  const target = arrayBase(ctx, e.args[0]!);
  if (!target) return undefined;
  const { array } = target;
  const space = memorySpace(array.type);
  if (space !== "global" && space !== "shared") {
    const what = space === "any" ? "a view, whose memory the function cannot know" : space === "local" ? "a local array, private to its thread" : "constant memory, which no thread writes";
    ctx.log.error("GK3017", e.args[0]!.span, `${b.name}() orders accesses to global and shared memory, but '${array.name}' is ${what}`);
    return undefined;
  }
  if (write && target.readonly) {
    ctx.log.error("GK2007", e.args[0]!.span, `${b.name}() writes to '${array.name}': ${readonlyWrite(array)}`);
    return undefined;
  }
  const elem = array.type.elem;
  if (elem.kind !== "scalar" || !b.rule.types.includes(elem.name)) {
    ctx.log.error("GK3017", e.args[0]!.span, `${b.name}() works on ${b.rule.types.join(", ")} elements, but '${array.name}' holds ${typeToString(elem)} (${tyName(array.type)})`);
    return undefined;
  }
  const indices = checkIndices(ctx, array, [...target.indices, e.args[1]!], e);
  return indices && { array, indices };
}

/** `loadAcquire(a, i)`, `loadVolatile(a, i)`: a load with an ordering. Stores and fences have no value (GK3018). */
export function checkOrderedLoad(ctx: FnCtx, e: ast.CallExpr, b: MemoryEntry): Expr | undefined {
  const order = LOAD_ORDER[b.rule.op];
  if (!order) {
    ctx.log.error("GK3018", e.span, `${b.name}() has no value; call it as a statement: '${b.name}(${b.rule.op.startsWith("fence") ? "" : "arr, i, v"});'`);
    return undefined;
  }
  if (!arity(ctx, e, 2, `${b.name}(array, index)`)) return undefined;
  const el = element(ctx, e, b, false);
  return el && { kind: "load", type: el.array.type.elem, array: el.array, indices: el.indices, path: [], vector: null, order, span: e.span };
}

/** A fence, or a store with an ordering, as a statement; a load as a statement has no effect (GK4011). */
export function checkMemoryStatement(ctx: FnCtx, e: ast.CallExpr, b: MemoryEntry, span: ast.Stmt["span"]): Stmt[] {
  const op = b.rule.op;
  if (op === "fenceBlock" || op === "fenceDevice") {
    if (!arity(ctx, e, 0, "")) return [];
    return [{ kind: "fence", scope: op === "fenceBlock" ? "block" : "device", span }];
  }
  const order = STORE_ORDER[op];
  if (!order) {
    if (checkOrderedLoad(ctx, e, b)) ctx.log.warning("GK4011", span, `this expression has no effect: ${b.name}() reads a value, which is not used`);
    return [];
  }
  if (!arity(ctx, e, 3, `${b.name}(array, index, value)`)) return [];
  const el = element(ctx, e, b, true);
  const value = el && checkAs(ctx, e.args[2]!, el.array.type.elem, `the value ${b.name}() stores in '${el.array.name}'`);
  return el && value ? [{ kind: "store", array: el.array, indices: el.indices, path: [], vector: null, value, order, span }] : [];
}
