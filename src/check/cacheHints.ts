/**
 * The cache-hinted accesses (src/ir/cacheHintBuiltins.ts): `loadStreaming(a, i)`,
 * `loadReadOnly4(a, i)`, ... are loads with `cache` set; `storeStreaming(a, i, v)` and its
 * vector forms are statements. The element is named as for `load4`: an array, partly indexed
 * for more than one dimension, and the last index. Only global memory takes a hint (GK3022),
 * and `loadReadOnly` only a kernel's readonly array, which no thread writes during the launch
 * (in a device function a readonly parameter may be an array the kernel writes).
 */
import type * as ast from "../parser/ast.js";
import type { CacheHintEntry } from "../ir/builtins.js";
import type { ArrayVar, Expr, Stmt } from "../ir/nodes.js";
import { isVectorLane, memorySpace, sizeOf, typeToString, vectorType, type ValueType } from "../ir/types.js";
import type { FnCtx, ValueExpr } from "./context.js";
import { checkAs } from "./expr.js";
import { arrayBase, checkIndices, readonlyWrite } from "./memory.js";
import { LANE_LIST } from "./typeExpr.js";

/** The element a hinted access names, its value type (the vector for 2 or 4 lanes) and checked indices; undefined after reporting. */
function target(ctx: FnCtx, e: ast.CallExpr, b: CacheHintEntry): { array: ArrayVar; indices: ValueExpr[]; type: ValueType } | undefined {
  const { op, hint, lanes } = b.rule;
  const args = op === "load" ? "arr, i" : "arr, i, v";
  if (e.args.length !== (op === "load" ? 2 : 3)) {
    ctx.log.error("GK3004", e.span, `${b.name}() takes ${op === "load" ? 2 : 3} arguments: ${b.name}(${args}), but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
    return undefined;
  }
  const base = arrayBase(ctx, e.args[0]!);
  if (!base) return undefined;
  const { array } = base;
  const space = memorySpace(array.type);
  if (space !== "global") {
    const what = space === "any" ? "a view, whose memory the function cannot know" : space === "shared" ? "shared memory" : space === "local" ? "a local array" : "constant memory";
    ctx.log.error("GK3022", e.args[0]!.span, `${b.name}() is a cache hint for global memory, but '${array.name}' is ${what}: use a plain ${op === "load" ? `access (${array.name}[i])` : "store"}`);
    return undefined;
  }
  if (op === "store" && base.readonly) {
    ctx.log.error("GK2007", e.args[0]!.span, `${b.name}() writes to '${array.name}': ${readonlyWrite(array)}`);
    return undefined;
  }
  if (hint === "readOnly" && !base.readonly) {
    ctx.log.error("GK3022", e.args[0]!.span, `${b.name}() reads through a cache that does not see this launch's writes, but '${array.name}' is a writable array (${typeToString(array.type)}): declare it 'readonly global<...>' if the kernel never writes it, or use a plain access`);
    return undefined;
  }
  if (hint === "readOnly" && ctx.kind !== "kernel") {
    ctx.log.error("GK3022", e.args[0]!.span, `${b.name}() reads arrays no thread writes during the launch, which only a kernel knows: in a device function '${array.name}' may be an array its kernel writes; call it in the kernel, or use a plain access`);
    return undefined;
  }
  const elem = array.type.elem;
  if (lanes === 1 ? elem.kind !== "scalar" && !(elem.kind === "vector" && elem.lanes !== 3) : elem.kind !== "scalar" || !isVectorLane(elem, lanes)) {
    const takes = lanes === 1 ? "scalar elements and vectors of 2 or 4 lanes" : `${LANE_LIST} elements (f16 and bf16 2 at a time)`;
    ctx.log.error("GK3022", e.args[0]!.span, `${b.name}() moves ${takes}, but '${array.name}' holds ${typeToString(elem)}`);
    return undefined;
  }
  const type = lanes === 1 ? elem : vectorType(elem as Extract<typeof elem, { kind: "scalar" }>, lanes);
  if (sizeOf(type) > 16) {
    ctx.log.error("GK3022", e.args[0]!.span, `${b.name}() moves at most 16 bytes in one access, but ${typeToString(type)} takes ${sizeOf(type)}: ${lanes === 4 ? `use ${b.name.slice(0, -1)}2 twice` : "split the access"}`);
    return undefined;
  }
  const indices = checkIndices(ctx, array, [...base.indices, e.args[1]!], e);
  return indices && { array, indices, type };
}

/** `loadStreaming(a, i)`, `loadReadOnly4(a, i)`, ...: a load with a cache hint. */
export function checkHintedLoad(ctx: FnCtx, e: ast.CallExpr, b: CacheHintEntry): Expr | undefined {
  const t = target(ctx, e, b);
  const vector = b.rule.lanes === 1 ? null : b.rule.lanes;
  return t && { kind: "load", type: t.type, array: t.array, indices: t.indices, path: [], vector, cache: b.rule.hint, span: e.span };
}

/** `storeStreaming(a, i, v)`, `storeStreaming4(a, i, v)`: a store with a cache hint, as a statement. */
export function checkHintedStore(ctx: FnCtx, e: ast.CallExpr, b: CacheHintEntry, span: ast.Stmt["span"]): Stmt[] {
  const t = target(ctx, e, b);
  const value = t && checkAs(ctx, e.args[2]!, t.type, `the value ${b.name}() stores in '${t.array.name}'`);
  if (!t || !value) return [];
  return [{ kind: "store", array: t.array, indices: t.indices, path: [], vector: b.rule.lanes === 1 ? null : b.rule.lanes, value, cache: b.rule.hint, span }];
}
