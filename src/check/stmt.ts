/** Checking statements: from AST statements to IR statements, with scopes, loops and returns. */
import type * as ast from "../parser/ast.js";
import type { Span } from "../diagnostics/source.js";
import type { ArrayVar, Expr, PathStep, ValueVar, Stmt } from "../ir/nodes.js";
import { lookupBuiltin, vectorMemoryBuiltin, type AsyncCopyEntry, type CacheHintEntry, type MemoryEntry } from "../ir/builtins.js";
import { checkMemoryStatement } from "./memoryOps.js";
import { checkHintedStore } from "./cacheHints.js";
import { checkAsyncCopyStatement } from "./asyncCopies.js";
import { pathExprs, someExpr, withPathExprs } from "../ir/walk.js";
import { byteSize, isBool, laneScalar, T, typeToString, type ValueType } from "../ir/types.js";
import { zeroValue } from "../ir/composite.js";
import { constExpr, knownDim, textOf, tyName, type FnCtx, type ValueExpr } from "./context.js";
import { checkAs, checkCondition, checkExpr, checkValue, flattenLiteral, materialize, outRead, untypedOf } from "./expr.js";
import { checkCompound } from "./operators.js";
import { checkPlace, type Place } from "./access.js";
import { checkVectorStore } from "./vectors.js";
import { isReservedName } from "../ir/names.js";
import { symbolSpan, type LocalSymbol } from "./symbols.js";
import { checkSwitch } from "./switch.js";
import { constIntegerOrUnknown, isConstantInit, resolveType, withConstInits } from "./typeExpr.js";


/** Checks a list of statements in the current scope. `topLevel`: directly in a kernel's body. */
export function checkStmts(ctx: FnCtx, stmts: readonly ast.Stmt[], topLevel = false): Stmt[] {
  const out: Stmt[] = [];
  let jumpedAt: ast.Stmt | undefined;
  let warned = false;
  for (const s of stmts) {
    if (jumpedAt && !warned && s.kind !== "Empty") {
      ctx.log.warning("GK4006", s.span, `unreachable code: the ${jumpedAt.kind.toLowerCase()} before it always leaves this block`);
      warned = true;
    }
    out.push(...checkStmt(ctx, s, topLevel));
    if (s.kind === "Return" || s.kind === "Break" || s.kind === "Continue") jumpedAt ??= s;
  }
  return out;
}

/** A nested statement in its own scope (a branch or a loop body). */
function checkScoped(ctx: FnCtx, s: ast.Stmt): Stmt[] {
  ctx.scopes.push();
  const body = s.kind === "Block" ? checkStmts(ctx, s.body) : checkStmt(ctx, s, false);
  ctx.scopes.pop();
  return body;
}

export function checkStmt(ctx: FnCtx, s: ast.Stmt, topLevel: boolean): Stmt[] {
  switch (s.kind) {
    case "VarDecl":
      return checkVarDecl(ctx, s);
    case "VarDecls":
      return s.decls.flatMap((d) => checkVarDecl(ctx, d));
    case "SharedDecl":
      checkShared(ctx, s, topLevel);
      return [];
    case "Assign":
      return checkAssign(ctx, s);
    case "IncDec":
      return checkUpdate(ctx, s.target, s.op === "++" ? "+" : "-", undefined, s.span, s.span);
    case "ExprStmt":
      return checkExprStmt(ctx, s);
    case "If": {
      const cond = checkCondition(ctx, s.cond, "an if condition");
      const then = checkScoped(ctx, s.then);
      const els = s.else ? checkScoped(ctx, s.else) : [];
      return cond ? [{ kind: "if", cond, then, else: els, span: s.span }] : [];
    }
    case "Switch":
      return checkSwitch(ctx, s, (body) => {
        ctx.scopes.push();
        const out = checkStmts(ctx, body);
        ctx.scopes.pop();
        return out;
      });
    case "For":
      return checkFor(ctx, s);
    case "While":
    case "DoWhile": {
      const cond = checkCondition(ctx, s.cond, s.kind === "While" ? "a while condition" : "a do-while condition");
      ctx.loopDepth++;
      const body = checkScoped(ctx, s.body);
      ctx.loopDepth--;
      if (!cond) return [];
      return [{ kind: "loop", init: [], cond, step: [], body, testFirst: s.kind === "While", span: s.span }];
    }
    case "Break":
    case "Continue": {
      const word = s.kind === "Break" ? "break" : "continue";
      if (ctx.loopDepth === 0) {
        ctx.log.error("GK4004", s.span, `'${word}' is only allowed inside a loop (for, while, do-while)`);
        return [];
      }
      return [{ kind: word, span: s.span }];
    }
    case "Return":
      return checkReturn(ctx, s);
    case "Block": {
      ctx.scopes.push();
      const body = checkStmts(ctx, s.body);
      ctx.scopes.pop();
      return [{ kind: "block", body, span: s.span }];
    }
    case "Annotated":
      return checkAnnotated(ctx, s, topLevel);
    case "Empty":
      return [];
  }
}

/** `@unroll` / `@unroll(N)` before a loop; every other annotation is refused (GK4013), its statement still checked. */
function checkAnnotated(ctx: FnCtx, s: ast.AnnotatedStmt, topLevel: boolean): Stmt[] {
  const a = s.annotation;
  const body = checkStmt(ctx, s.body, topLevel);
  if (a.name.name !== "unroll") {
    const why = a.name.name === "flushToZero" ? "@flushToZero is an option of the whole module: write '@flushToZero;' at the top level of the entry file" : `unknown annotation '@${a.name.name}': a statement may be annotated with @unroll or @unroll(N), before a loop`;
    ctx.log.error("GK4013", a.span, why);
    return body;
  }
  const loop = s.body.kind === "For" || s.body.kind === "While" || s.body.kind === "DoWhile";
  if (!loop) {
    ctx.log.error("GK4013", a.span, "@unroll applies to the loop after it (for, while, do-while), not to this statement");
    return body;
  }
  const args = a.args ?? [];
  if (args.length > 1) {
    ctx.log.error("GK4013", a.span, `@unroll takes at most one argument, the unroll count, but ${args.length} were given`);
    return body;
  }
  let unroll: "full" | number = "full";
  if (args.length === 1) {
    const n = constIntegerOrUnknown(ctx, args[0]!, "the unroll count");
    // A count of constant parameters (@unroll(N) in a generic definition) is checked in each instance, where N is known.
    if (n === undefined || n === "unknown") return body;
    if (n < 1n || n > 0x7fffffffn) {
      ctx.log.error("GK4013", args[0]!.span, `the unroll count must be from 1 (no unrolling) to 2147483647, but '${textOf(ctx, args[0]!.span)}' is ${n}`);
      return body;
    }
    unroll = Number(n);
  }
  return body.map((x) => (x.kind === "loop" ? { ...x, unroll } : x));
}

// ---------------------------------------------------------------- declarations

/** Declares a local name, reporting a clash in the same scope; returns false if it cannot be declared. */
export function declare(ctx: FnCtx, name: ast.Ident, sym: LocalSymbol): boolean {
  if (isReservedName(name.name)) {
    ctx.log.error("GK2009", name.span, `'${name.name}' is a reserved name in gk and cannot be declared`);
    return false;
  }
  const prev = ctx.scopes.declaredHere(name.name);
  if (prev) {
    ctx.log.error("GK2002", name.span, `'${name.name}' is already declared in this scope`, [{ message: "first declared here", span: symbolSpan(prev) }]);
    return false;
  }
  ctx.scopes.declare(name.name, sym);
  return true;
}

export function newValueVar(ctx: FnCtx, name: ast.Ident, type: ValueType, mutable: boolean): ValueVar {
  return { kind: "valueVar", id: ctx.nextId++, name: name.name, type, mutable, span: name.span };
}

/** The zero of a type as an expression: a constant for a scalar. */
export function zeroExpr(t: ValueType, span: Span): Expr {
  return t.kind === "scalar" ? constExpr(t, zeroValue(t) as boolean | number | bigint, span) : { kind: "zero", type: t, span };
}

export function newArrayVar(ctx: FnCtx, name: ast.Ident, type: ArrayVar["type"]): ArrayVar {
  return { kind: "arrayVar", id: ctx.nextId++, name: name.name, type, span: name.span };
}

function checkVarDecl(ctx: FnCtx, s: ast.VarDecl): Stmt[] {
  const word = s.mutable ? "let" : "const";
  if (s.type) {
    const t = resolveType(ctx, s.type, "local");
    if (!t) return poisonDecl(ctx, s, s.init);
    if (t.kind === "array") return checkLocalArray(ctx, s, t);
    if (t.kind !== "scalar" && t.kind !== "vector" && t.kind !== "struct") return poisonDecl(ctx, s, s.init);
    const init = s.init ? checkAs(ctx, s.init, t, `'${s.name.name}'`) : zeroExpr(t, s.span);
    if (!init) return poisonDecl(ctx, s);
    const v = newValueVar(ctx, s.name, t, s.mutable);
    if (!declare(ctx, s.name, { kind: "value", var: v })) return [];
    noteConstInit(ctx, s, v, init);
    return [{ kind: "let", var: v, init, span: s.span }];
  }
  if (!s.init) {
    ctx.log.error("GK3012", s.span, `'${word} ${s.name.name};' needs a type or an initial value: write '${word} ${s.name.name}: f32;' or '${word} ${s.name.name} = 0;'`);
    return poisonDecl(ctx, s);
  }
  if (s.init.kind === "ArrayLit") {
    const t = literalArrayType(ctx, s.init);
    if (t) return checkLocalArray(ctx, s, t);
    ctx.log.error("GK3012", s.init.span, `a local array needs its type here: write 'let ${s.name.name}: f32[${s.init.elements.length}] = [...];'`);
    return poisonDecl(ctx, s);
  }
  const u = untypedOf(ctx, s.init);
  if (!s.mutable && u) {
    // An untyped `const` stays untyped and takes its type where it is used.
    declare(ctx, s.name, { kind: "untypedConst", value: u, span: s.name.span });
    return [];
  }
  if (s.init.kind === "ObjectLit") {
    ctx.log.error("GK3040", s.init.span, `a struct value needs its type written here: '${word} ${s.name.name}: Name = { ... };'`);
    return poisonDecl(ctx, s);
  }
  const init = checkValue(ctx, s.init);
  if (!init) return poisonDecl(ctx, s);
  const v = newValueVar(ctx, s.name, init.type, s.mutable);
  if (!declare(ctx, s.name, { kind: "value", var: v })) return [];
  noteConstInit(ctx, s, v, init);
  return [{ kind: "let", var: v, init, span: s.span }];
}

/** A `const` local of a scalar constant expression (`const M = N * 2;`, N a constant parameter): array sizes may read it (FnCtx.constInits). */
function noteConstInit(ctx: FnCtx, s: ast.VarDecl, v: ValueVar, init: Expr): void {
  if (s.mutable || v.type.kind !== "scalar") return;
  const value = withConstInits(ctx, init);
  if (isConstantInit(ctx, value)) ctx.constInits.set(v.id, value);
}

/** A declaration that failed: its name still exists, so later uses are not reported as unknown. */
function poisonDecl(ctx: FnCtx, s: ast.VarDecl, init?: ast.Expr): Stmt[] {
  if (init) checkExpr(ctx, init); // still report what is wrong inside the initializer
  if (!ctx.scopes.declaredHere(s.name.name)) ctx.scopes.declare(s.name.name, { kind: "poisoned", span: s.name.span });
  return [];
}

function checkLocalArray(ctx: FnCtx, s: ast.VarDecl, t: ArrayVar["type"] & { kind: "array" }): Stmt[] {
  if (!s.mutable) {
    ctx.log.error("GK4010", s.span, `local arrays are declared with let: write 'let ${s.name.name}: ${tyName(t)}'`);
    return poisonDecl(ctx, s);
  }
  const count = t.dims.reduce((a, b) => a * b, 1);
  // A size that depends on a constant parameter (in a generic definition) is checked in each instance.
  const known = t.dims.every(knownDim);
  const limit = ctx.module.target.limits.localBytes;
  if (known && count * byteSize(t.elem) > limit) {
    ctx.log.error("GK4009", (s.type ?? s.init ?? s).span, `'${s.name.name}' needs ${count * byteSize(t.elem)} bytes per thread; local arrays are limited to ${limit} bytes (use global memory for large data)`);
    return poisonDecl(ctx, s);
  }
  let init: Expr[] | null = null;
  if (s.init) {
    if (s.init.kind !== "ArrayLit") {
      ctx.log.error("GK3013", s.init.span, `a local array is initialized with an array literal, e.g. 'let ${s.name.name}: ${tyName(t)} = [${Array(Math.min(count, 3)).fill("0").join(", ")}${count > 3 ? ", ..." : ""}];'`);
      return poisonDecl(ctx, s);
    }
    const flat = flattenLiteral(s.init);
    if (known && flat.length !== count) {
      ctx.log.error("GK3004", s.init.span, `'${s.name.name}' has ${count} elements but the initializer has ${flat.length}`);
      return poisonDecl(ctx, s);
    }
    init = [];
    for (const el of flat) {
      const v = checkAs(ctx, el, t.elem, `an element of '${s.name.name}'`);
      if (!v) return poisonDecl(ctx, s);
      init.push(v);
    }
  }
  const a = newArrayVar(ctx, s.name, { ...t, space: "local" });
  if (!declare(ctx, s.name, { kind: "array", var: a, readonly: false })) return [];
  return [{ kind: "localArray", array: a, init, span: s.span }];
}

/**
 * The type of `let a = [[1, 2], [3, 4]];` from its literal: rectangular, every element an
 * untyped constant; f32 when one of them is a float, else i32 (the literals' defaults).
 * Otherwise undefined, and the declaration needs its type written.
 */
function literalArrayType(ctx: FnCtx, lit: ast.ArrayLit): (ArrayVar["type"] & { kind: "array" }) | undefined {
  const dims: number[] = [];
  for (let level: ast.ArrayLit = lit; ; ) {
    if (level.elements.length === 0) return undefined;
    dims.push(level.elements.length);
    const first = level.elements[0]!;
    if (first.kind !== "ArrayLit") break;
    level = first;
  }
  const rectangular = (e: ast.Expr, depth: number): boolean =>
    depth === dims.length ? e.kind !== "ArrayLit" : e.kind === "ArrayLit" && e.elements.length === dims[depth] && e.elements.every((x) => rectangular(x, depth + 1));
  if (!rectangular(lit, 0)) return undefined;
  const leaves = flattenLiteral(lit).map((e) => untypedOf(ctx, e));
  if (leaves.some((u) => !u)) return undefined;
  const elem = leaves.some((u) => u!.kind === "float") ? T.f32 : T.i32;
  return { kind: "array", elem, dims, space: "local" };
}

/**
 * `shared t: T[N];` in a kernel's body: block-wide memory, at its top level or in a nested
 * block (a loop body, a branch), where its name is in scope; either way one array per block,
 * which a loop's next iteration sees as the last one left it. A dynamic shared array, whose
 * length each launch gives by its name, is declared at the top level only.
 */
function checkShared(ctx: FnCtx, s: ast.SharedDecl, topLevel: boolean): void {
  const dynamicNested = !topLevel && s.type.kind === "ArrayType" && s.type.unsized;
  if (ctx.kind !== "kernel" || dynamicNested) {
    const message =
      ctx.kind === "kernel"
        ? "a dynamic shared array is declared at the top level of a device_kernel's body (each launch gives its length by its name), not inside a nested block"
        : "'shared' memory is declared in a device_kernel's body, not in a device_fn (pass the kernel's shared array to a `shared T[N]` parameter)";
    ctx.log.error("GK4001", s.span, message);
    ctx.scopes.declare(s.name.name, { kind: "poisoned", span: s.name.span });
    return;
  }
  const t = resolveType(ctx, s.type, "shared");
  if (!t || (t.kind !== "scalar" && t.kind !== "vector" && t.kind !== "struct" && t.kind !== "array" && t.kind !== "dynamicShared")) {
    ctx.scopes.declare(s.name.name, { kind: "poisoned", span: s.name.span });
    return;
  }
  const scalar = t.kind !== "array" && t.kind !== "dynamicShared";
  if (t.kind === "dynamicShared") {
    // Its bytes are counted at each launch, which gives its length (src/check/launch.ts, `sharedClause`).
    const a = newArrayVar(ctx, s.name, t);
    if (declare(ctx, s.name, { kind: "array", var: a, readonly: false })) ctx.shared.push(a);
    return;
  }
  if (t.kind !== "scalar" && t.kind !== "vector" && t.kind !== "struct" && t.kind !== "array") {
    ctx.scopes.declare(s.name.name, { kind: "poisoned", span: s.name.span });
    return;
  }
  const type = t.kind !== "array" ? { kind: "array" as const, elem: t, dims: [1], space: "shared" as const } : t;
  const bytes = type.dims.every(knownDim) ? type.dims.reduce((a, b) => a * b, 1) * byteSize(type.elem) : 0;
  ctx.sharedBytes += bytes;
  // Past the target's static limit they lie in the kernel's dynamic shared memory (kernelMemory.ts, liftedSharedLayout), up to its shared memory per block.
  const limits = ctx.module.target.limits;
  if (ctx.sharedBytes > limits.sharedBytes) {
    ctx.log.error("GK4008", s.span, `'${ctx.name}' now declares ${ctx.sharedBytes} bytes of shared memory; a block may use at most ${limits.sharedBytes} bytes of shared memory (${limits.sharedBytesWhat}), fixed-size and dynamic arrays together`);
  }
  const a = newArrayVar(ctx, s.name, type);
  if (declare(ctx, s.name, { kind: "array", var: a, readonly: false, scalar })) ctx.shared.push(a);
}

// ---------------------------------------------------------------- assignment

function write(p: Place, value: ValueExpr, span: Span): Stmt {
  return p.kind === "var"
    ? { kind: "assign", var: p.var, path: p.path, value, span }
    : { kind: "store", array: p.array, indices: p.indices, path: p.path, vector: null, value, span };
}

function checkAssign(ctx: FnCtx, s: ast.AssignStmt): Stmt[] {
  if (s.op === "=") {
    const place = checkPlace(ctx, s.target);
    if (!place) {
      if (!isWholeArray(ctx, s.target)) checkExpr(ctx, s.value); // report what else is wrong
      return [];
    }
    const value = checkAs(ctx, s.value, place.type, `'${textOf(ctx, s.target.span)}'`);
    return value ? [write(place, value, s.span)] : [];
  }
  return checkUpdate(ctx, s.target, s.op.slice(0, -1) as ast.BinaryOp, s.value, s.span, s.opSpan);
}

function isWholeArray(ctx: FnCtx, target: ast.Expr): boolean {
  return target.kind === "Name" && ctx.scopes.lookup(target.name)?.kind === "array";
}

/** Whether evaluating an expression twice could differ from once (calls, atomics and warp operations have effects). */
function hasEffects(e: Expr): boolean {
  return someExpr(e, (x) => x.kind === "call" || x.kind === "atomic" || x.kind === "warp");
}

/** `x op= v`, `x++`, `x--`: read the place once, combine, write back; indices with effects are evaluated once. */
function checkUpdate(ctx: FnCtx, target: ast.Expr, op: ast.BinaryOp, value: ast.Expr | undefined, span: Span, opSpan: Span): Stmt[] {
  let place = checkPlace(ctx, target);
  if (!place) {
    if (value) checkExpr(ctx, value);
    return [];
  }
  const t = place.type;
  if (place.kind === "var" && place.var.ref === "out") {
    ctx.log.error("GK3019", place.span, outRead(place.var.name));
    if (value) checkExpr(ctx, value);
    return [];
  }
  const pre: Stmt[] = [];
  // Indices with effects are evaluated once, into locals, before the place is read and written.
  const once = (ix: Expr, k: number): Expr => {
    if (!hasEffects(ix)) return ix;
    const name = place!.kind === "elem" ? place!.array.name : place!.var.name;
    const tmp: ValueVar = { kind: "valueVar", id: ctx.nextId++, name: `${name}_i${k}`, type: ix.type as ValueType, mutable: false, span: ix.span };
    pre.push({ kind: "let", var: tmp, init: ix, span: ix.span });
    return { kind: "var", type: tmp.type, var: tmp, span: ix.span };
  };
  const pathIndices = pathExprs(place.path);
  if ((place.kind === "elem" && place.indices.some(hasEffects)) || pathIndices.some(hasEffects)) {
    const indices = place.kind === "elem" ? place.indices.map((ix, k) => once(ix, k) as ValueExpr) : [];
    const path: PathStep[] = withPathExprs(place.path, pathIndices.map((ix, k) => once(ix, indices.length + k)));
    place = place.kind === "elem" ? { ...place, indices, path } : { ...place, path };
  }
  const current: ValueExpr =
    place.kind === "var"
      ? place.path.length
        ? { kind: "member", type: t, operand: { kind: "var", type: place.var.type, var: place.var, span: place.span }, path: place.path, span: place.span }
        : { kind: "var", type: t, var: place.var, span: place.span }
      : { kind: "load", type: t, array: place.array, indices: place.indices, path: place.path, vector: null, span: place.span };
  let next: ValueExpr | undefined;
  const lane = laneScalar(t);
  if (value) next = checkCompound(ctx, op, current, target.span, value, span, opSpan);
  else if (!lane || isBool(lane)) {
    ctx.log.error("GK3003", span, `'${op}${op}' needs a number, but '${textOf(ctx, target.span)}' is ${typeToString(t)}`);
  } else {
    const one = materialize(ctx, { kind: "int", value: 1n }, lane, span);
    const step: ValueExpr | undefined = one && (t.kind === "vector" ? { kind: "construct", type: t, args: [one], span } : one);
    if (step) next = { kind: "binary", type: t, op: op === "+" ? "add" : "sub", left: current, right: step, span };
  }
  if (!next) return [];
  const stmt = write(place, next, span);
  return pre.length ? [{ kind: "block", body: [...pre, stmt], span }] : [stmt];
}

// ---------------------------------------------------------------- other statements

function checkExprStmt(ctx: FnCtx, s: ast.ExprStmt): Stmt[] {
  let e = s.expr;
  while (e.kind === "Paren") e = e.expr;
  const vstore = e.kind === "Call" && !ctx.scopes.lookup(e.callee.name) && !ctx.module.lookup(e.callee.name) ? vectorMemoryBuiltin(e.callee.name) : undefined;
  if (e.kind === "Call" && vstore?.rule.op === "store") {
    const st = checkVectorStore(ctx, e, vstore.rule.lanes);
    return st ? [st] : [];
  }
  if (e.kind === "Call" && e.callee.name === "barrier" && !ctx.scopes.lookup("barrier") && !ctx.module.lookup("barrier")) {
    if (e.args.length !== 0) {
      ctx.log.error("GK3004", e.span, `barrier() takes no arguments, but ${e.args.length} ${e.args.length === 1 ? "was" : "were"} given`);
      return [];
    }
    if (ctx.kind === "const") return [];
    return [{ kind: "barrier", span: s.span }];
  }
  if (e.kind === "Call" && !ctx.scopes.lookup(e.callee.name) && !ctx.module.lookup(e.callee.name)) {
    const b = lookupBuiltin(e.callee.name);
    if (b?.rule.kind === "memory") return ctx.kind === "const" ? [] : checkMemoryStatement(ctx, e, b as MemoryEntry, s.span);
    if (b?.rule.kind === "cacheHint" && b.rule.op === "store") return ctx.kind === "const" ? [] : checkHintedStore(ctx, e, b as CacheHintEntry, s.span);
    if (b?.rule.kind === "asyncCopy") return ctx.kind === "const" ? [] : checkAsyncCopyStatement(ctx, e, b as AsyncCopyEntry, s.span);
  }
  const r = checkExpr(ctx, e);
  if (!r) return [];
  if (r.kind !== "call" && r.kind !== "atomic" && r.kind !== "warp") {
    ctx.log.warning("GK4011", s.span, `this expression has no effect${r.kind === "binary" && r.op === "eq" ? "; did you mean '=' (assignment)?" : ""}`);
    return [];
  }
  return [{ kind: "expr", expr: r, span: s.span }];
}

function checkFor(ctx: FnCtx, s: ast.ForStmt): Stmt[] {
  ctx.scopes.push();
  const init = s.init ? checkStmt(ctx, s.init, false) : [];
  const cond = s.cond ? (checkCondition(ctx, s.cond, "a for condition") ?? null) : null;
  const step = s.step ? checkStmt(ctx, s.step, false) : [];
  ctx.loopDepth++;
  const body = checkScoped(ctx, s.body);
  ctx.loopDepth--;
  ctx.scopes.pop();
  if (s.cond && !cond) return [];
  return [{ kind: "loop", init, cond, step, body, testFirst: true, span: s.span }];
}

function checkReturn(ctx: FnCtx, s: ast.ReturnStmt): Stmt[] {
  const rt = ctx.returnType;
  if (rt.kind === "void") {
    if (s.value) {
      const who = ctx.kind === "kernel" ? "a device_kernel returns nothing" : `'${ctx.name}' returns void`;
      ctx.log.error("GK4005", s.value.span, `${who}; write 'return;' (kernels write their results to global arrays)`);
      checkExpr(ctx, s.value);
      return [];
    }
    return [{ kind: "return", value: null, span: s.span }];
  }
  if (!s.value) {
    ctx.log.error("GK4005", s.span, `'${ctx.name}' returns ${typeToString(rt)}: write 'return <value>;'`);
    return [];
  }
  const v = checkAs(ctx, s.value, rt, `the return type of '${ctx.name}'`, "GK3011");
  return v ? [{ kind: "return", value: v, span: s.span }] : [];
}

/**
 * Whether control can never fall off the end of these statements: they return (or, with
 * `viaContinue`, continue the loop around them) on every path.
 */
export function alwaysLeaves(stmts: readonly Stmt[], viaContinue = false): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case "return":
        return true;
      case "continue":
        return viaContinue;
      case "if":
        return alwaysLeaves(s.then, viaContinue) && alwaysLeaves(s.else, viaContinue);
      case "block":
        return alwaysLeaves(s.body, viaContinue);
      case "loop":
        return (s.cond === null || (s.cond.kind === "const" && s.cond.value === true)) && !breaksOut(s.body);
      default:
        return false;
    }
  });
}

/** Whether a `break` in these statements leaves the loop they belong to. */
function breaksOut(stmts: readonly Stmt[]): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case "break":
        return true;
      case "if":
        return breaksOut(s.then) || breaksOut(s.else);
      case "block":
        return breaksOut(s.body);
      default:
        return false; // a nested loop's breaks are its own
    }
  });
}

