/**
 * The IR verifier: checks the invariants every pass may rely on (types agree, variables
 * are declared before use and in scope, indices match dimensions, constants are
 * canonical). It returns problems instead of throwing, so tests can show all of them.
 */
import { isBitcastType, valueBits } from "./bitcast.js";
import { assertNever } from "../util.js";
import { atomicBuiltin, mathBuiltin, satisfies, vectorBuiltin, warpBuiltin } from "./builtins.js";
import { atomicTypeName } from "./atomicBuiltins.js";
import { isComparison } from "./evalOp.js";
import { jsrt } from "./jsrt.js";
import type { Expr, Function, Module, PathStep, Stmt } from "./nodes.js";
import { pathExprs } from "./walk.js";
import { pathType } from "./paths.js";
import {
  elementCount, isBool, isFloat, isInt, isReadonlyMemory, laneScalar, memoryDims, memorySpace, sameType, sizeOf, vectorType, type ArrayType, type MemoryType, type ScalarType,
  type ScalarValue, T, typeToString, type ValueType, type VoidType,
} from "./types.js";
import { INT_RANGES } from "./values.js";
import { SHUFFLE_TYPES } from "./warpBuiltins.js";

export function verifyModule(m: Module): string[] {
  const problems: string[] = [];
  const fns = new Map([...m.functions, ...m.kernels].map((f) => [f.name, f]));
  const constants = m.constantArrays ?? [];
  for (const a of constants) {
    if (a.id >= 0) problems.push(`constant array ${a.name} has id ${a.id}, not a negative one`);
    if (a.type.kind !== "array" || a.type.space !== "constant") problems.push(`constant array ${a.name} has type ${typeToString(a.type)}`);
  }
  for (const f of [...m.functions, ...m.kernels]) verifyFunction(f, fns, constants.map((a) => a.id), problems);
  for (const l of m.launches) {
    const k = m.kernels.find((x) => x.name === l.kernel);
    if (!k) problems.push(`launch of unknown kernel ${l.kernel}`);
    else if (k.params.length !== l.args.length) problems.push(`launch of ${l.kernel}: ${l.args.length} args for ${k.params.length} params`);
  }
  return problems;
}

export function canonical(t: ScalarType, v: ScalarValue): boolean {
  switch (t.name) {
    case "bool": return typeof v === "boolean";
    case "i32": return typeof v === "number" && (v | 0) === v && !Object.is(v, -0);
    case "u32": return typeof v === "number" && v >>> 0 === v;
    case "i64": return typeof v === "bigint" && BigInt.asIntN(64, v) === v;
    case "u64": return typeof v === "bigint" && BigInt.asUintN(64, v) === v;
    case "f32": return typeof v === "number" && (Object.is(Math.fround(v), v) || Number.isNaN(v));
    case "f64": return typeof v === "number";
    case "f16": return typeof v === "number" && (Object.is(jsrt.f16(v), v) || Number.isNaN(v));
    case "bf16": return typeof v === "number" && (Object.is(jsrt.bf16(v), v) || Number.isNaN(v));
    case "i8":
    case "u8":
    case "i16":
    case "u16": {
      const [lo, hi] = INT_RANGES[t.name];
      return typeof v === "number" && Number.isInteger(v) && !Object.is(v, -0) && v >= Number(lo) && v <= Number(hi);
    }
  }
}

/** Whether a load or store with this ordering may touch this memory (global or shared). */
function orderable(t: MemoryType): boolean {
  const space = memorySpace(t);
  return space === "global" || space === "shared";
}

function verifyFunction(f: Function, fns: ReadonlyMap<string, Function>, constantIds: readonly number[], problems: string[]): void {
  const where = (what: string) => problems.push(`${f.name}: ${what}`);
  const scopes: Set<number>[] = [new Set(constantIds)];
  const declared = new Set<number>();
  const inScope = (id: number) => scopes.some((s) => s.has(id));
  const declare = (id: number, name: string) => {
    if (declared.has(id)) where(`variable ${name}#${id} declared twice`);
    declared.add(id);
    scopes[scopes.length - 1]!.add(id);
  };
  for (const p of f.params) declare(p.id, p.name);
  for (const s of f.shared) {
    declare(s.id, s.name);
    if (f.kind !== "kernel") where(`shared ${s.name} in a device function`);
    if (memorySpace(s.type) !== "shared") where(`shared ${s.name} has type ${typeToString(s.type)}`);
  }
  for (const p of f.params) {
    if (p.kind === "valueVar" && p.ref && f.kind === "kernel") where(`kernel parameter ${p.name} is a reference`);
    if (p.kind === "arrayVar" && f.kind === "kernel" && p.type.kind !== "global") where(`kernel parameter ${p.name} is ${typeToString(p.type)}`);
  }

  /** The type `path` leads to from `t`, or a problem: a step that does not fit, or an index that is not an integer. */
  const pathFrom = (t: ValueType | ArrayType, path: readonly PathStep[], what: string): ValueType | ArrayType | undefined => {
    for (const i of pathExprs(path)) {
      expr(i);
      if (i.type.kind !== "scalar" || !isInt(i.type)) where(`non-integer index in the path of ${what}`);
    }
    try {
      return pathType(t, path);
    } catch {
      where(`a path that does not fit ${typeToString(t)} in ${what}`);
      return undefined;
    }
  };

  const expr = (e: Expr, allowVoid = false): void => {
    const t = e.type;
    if (t.kind === "void" && !(allowVoid && (e.kind === "call" || e.kind === "warp"))) where(`${e.kind} has type void`);
    const same = (a: Expr | { readonly type: ValueType | VoidType }, b: ValueType | VoidType | ArrayType, what: string) => {
      if (a.type !== b) where(`${what}: ${typeToString(a.type)} is not ${typeToString(b)}`);
    };
    const lane = t.kind === "void" ? undefined : laneScalar(t);
    switch (e.kind) {
      case "const":
        if (!canonical(e.type, e.value)) where(`constant ${String(e.value)} is not a canonical ${e.type.name}`);
        return;
      case "var":
        if (!inScope(e.var.id)) where(`${e.var.name}#${e.var.id} used outside its scope`);
        if (e.var.ref === "out") where(`out parameter ${e.var.name} is read`);
        same(e, e.var.type, `use of ${e.var.name}`);
        return;
      case "special":
        if (e.type.name !== "i32") where(`${e.name} is not i32`);
        if (e.name === "laneId" && e.axis !== 0) where("laneId with an axis");
        return;
      case "unary":
        expr(e.operand);
        same(e.operand, e.type, `operand of ${e.op}`);
        if (!lane) where(`${e.op} on a ${t.kind}`);
        else if (e.op === "not" && !isBool(lane)) where("! on non-bool");
        else if (e.op === "bitnot" && !isInt(lane)) where("~ on a non-integer");
        else if (e.op === "neg" && isBool(lane)) where("- on bool");
        return;
      case "binary": {
        expr(e.left);
        expr(e.right);
        same(e.right, e.left.type, `right operand of ${e.op}`);
        const lt = e.left.type;
        const opLane = lt.kind === "void" ? undefined : laneScalar(lt);
        if (!opLane) where(`${e.op} on a ${lt.kind}`);
        if (isComparison(e.op)) {
          const want = lt.kind === "vector" ? vectorType(T.bool, lt.lanes) : T.bool;
          if (e.type !== want) where(`comparison ${e.op} is not ${typeToString(want)}`);
        } else same(e.left, e.type, `left operand of ${e.op}`);
        if ((e.op === "shl" || e.op === "shr") && opLane && !isInt(opLane)) where("shift of a non-integer");
        return;
      }
      case "logical":
        expr(e.left);
        expr(e.right);
        if (!isBool(e.type) || e.left.type.kind !== "scalar" || !isBool(e.left.type) || e.right.type.kind !== "scalar" || !isBool(e.right.type)) where("logical operator on non-bool");
        return;
      case "select":
        expr(e.cond);
        expr(e.ifTrue);
        expr(e.ifFalse);
        if (e.cond.type.kind !== "scalar" || !isBool(e.cond.type)) where("select condition is not bool");
        same(e.ifTrue, e.type, "select branch");
        same(e.ifFalse, e.type, "select branch");
        return;
      case "cast": {
        expr(e.operand);
        const from = e.operand.type;
        if (from === e.type) where(`redundant cast to ${typeToString(e.type)}`);
        const shapes = (from.kind === "scalar" && e.type.kind === "scalar") || (from.kind === "vector" && e.type.kind === "vector" && from.lanes === e.type.lanes);
        if (!shapes) where(`cast from ${typeToString(from)} to ${typeToString(e.type)}`);
        return;
      }
      case "bitcast": {
        expr(e.operand);
        const from = e.operand.type;
        if (from.kind === "void" || !isBitcastType(from) || valueBits(from) !== valueBits(e.type)) where(`bitcast from ${typeToString(from)} to ${typeToString(e.type)}`);
        return;
      }
      case "load": {
        if (!inScope(e.array.id)) where(`${e.array.name} used outside its scope`);
        indices(memoryDims(e.array.type).length, e.indices, e.array.name);
        if (e.order && !orderable(e.array.type)) where(`${e.order} load of ${e.array.name} (${typeToString(e.array.type)})`);
        if (e.cache && (memorySpace(e.array.type) !== "global" || e.order || e.path.length > 0)) where(`${e.cache} load of ${e.array.name} (${typeToString(e.array.type)})`);
        if (e.cache === "readOnly" && !isReadonlyMemory(e.array.type)) where(`readOnly load of writable ${e.array.name}`);
        const elem = e.array.type.elem;
        if (e.vector !== null) {
          if (elem.kind !== "scalar" || e.path.length > 0) where(`vector load of ${e.array.name}, which holds ${typeToString(elem)}`);
          else same(e, vectorType(elem, e.vector), `vector load of ${e.array.name}`);
          return;
        }
        const pt = pathFrom(elem, e.path, `a load of ${e.array.name}`);
        if (pt) same(e, pt, `load of ${e.array.name}`);
        return;
      }
      case "call": {
        const callee = fns.get(e.callee);
        if (!callee || callee.kind !== "device_fn") {
          where(`call of unknown device function ${e.callee}`);
          return;
        }
        if (callee.params.length !== e.args.length) where(`call of ${e.callee} with ${e.args.length} args`);
        e.args.forEach((a, i) => {
          const p = callee.params[i];
          if (!p) return;
          const what = `parameter ${p.name} of ${e.callee}`;
          switch (a.kind) {
            case "arrayArg":
              if (p.kind !== "arrayVar" || p.type.kind === "view") where(`array passed to ${what}`);
              if (!inScope(a.array.id)) where(`${a.array.name} used outside its scope`);
              return;
            case "varRef":
              if (p.kind !== "valueVar" || !p.ref) where(`variable reference passed to ${what}`);
              else same({ type: a.var.type } as Expr, p.type, `reference argument of ${what}`);
              if (!inScope(a.var.id)) where(`${a.var.name} used outside its scope`);
              if (!a.var.mutable) where(`const ${a.var.name} passed to ${what}`);
              if (a.var.ref === "out" && p.kind === "valueVar" && p.ref === "inout") where(`out parameter ${a.var.name} passed to inout ${what}`);
              return;
            case "elemRef":
              if (p.kind !== "valueVar" || !p.ref) where(`element reference passed to ${what}`);
              else if (a.array.type.elem !== p.type) where(`element of ${a.array.name} passed to ${what} of another type`);
              if (!inScope(a.array.id)) where(`${a.array.name} used outside its scope`);
              if (isReadonlyMemory(a.array.type)) where(`element of readonly ${a.array.name} passed to ${what}`);
              indices(memoryDims(a.array.type).length, a.indices, a.array.name);
              return;
            case "viewArg":
              if (p.kind !== "arrayVar" || p.type.kind !== "view") where(`view passed to ${what}`);
              else {
                if (a.array.type.elem !== p.type.elem) where(`view of ${a.array.name} passed to ${what} of another element type`);
                if (isReadonlyMemory(a.array.type) && !p.type.readonly) where(`view of readonly ${a.array.name} passed to writable ${what}`);
              }
              if (!inScope(a.array.id)) where(`${a.array.name} used outside its scope`);
              for (const x of [a.offset, a.length, a.stride]) {
                if (!x) continue;
                expr(x);
                same(x, T.i32, `view operand of ${what}`);
              }
              if (a.stride && !a.length) where(`view with a stride but no length passed to ${what}`);
              return;
            default:
              expr(a);
              if (p.kind !== "valueVar" || p.ref) where(`value passed to ${what}`);
              else same(a, p.type, `argument ${p.name} of ${e.callee}`);
          }
        });
        if (e.type !== callee.returnType) where(`call of ${e.callee} has the wrong type`);
        return;
      }
      case "builtin": {
        e.args.forEach((a) => expr(a));
        const v = vectorBuiltin(e.name);
        if (v) {
          if (e.args.length !== v.rule.params.length) where(`${e.name} with ${e.args.length} args`);
          const a0 = e.args[v.rule.operands === "select" ? 1 : 0]?.type;
          const l0 = a0 && a0.kind !== "void" ? laneScalar(a0) : undefined;
          if (!a0 || !l0 || (v.rule.operands !== "select" && a0.kind !== "vector")) where(`${e.name} on a bad operand type`);
          else if (v.rule.operands === "bool" ? !isBool(l0) : v.rule.operands !== "select" && !isFloat(l0)) where(`${e.name} on ${typeToString(a0)}`);
          else {
            if (v.rule.operands === "select") same(e.args[2]!, a0, "branch of select");
            else e.args.forEach((a) => same(a, a0, `argument of ${e.name}`));
            const want = v.rule.result === "lane" ? l0 : v.rule.result === "bool" ? T.bool : a0;
            same(e, want, `result of ${e.name}`);
          }
          return;
        }
        const b = mathBuiltin(e.name);
        if (!b) {
          where(`unknown builtin ${e.name}`);
          return;
        }
        const t0 = e.args[0]?.type;
        if (e.args.length !== b.rule.arity) where(`${e.name} with ${e.args.length} args`);
        if (!t0 || t0.kind === "void" || !satisfies(t0, b.rule.operands)) where(`${e.name} on a bad operand type`);
        else {
          e.args.forEach((a) => same(a, t0, `argument of ${e.name}`));
          const l = b.rule.result === "bool" ? T.bool : b.rule.result === "i32" ? T.i32 : laneScalar(t0)!;
          const want = t0.kind === "vector" ? vectorType(l, t0.lanes) : l;
          if (!sameType(e.type, want)) where(`${e.name} has the wrong result type`);
        }
        return;
      }
      case "atomic": {
        const b = atomicBuiltin(e.op);
        const at = e.array.type;
        // A view's memory is checked at the calls that make it (src/check/atomicViews.ts).
        if (isReadonlyMemory(at) || !(orderable(at) || at.kind === "view")) where(`atomic on ${e.array.name} (${typeToString(at)})`);
        const el = at.elem;
        const elemOk = el.kind === "scalar" ? b.rule.types.includes(el.name) : el.kind === "vector" && (b.rule.vectors ?? []).some((v) => v === atomicTypeName(el));
        if (!elemOk) where(`atomic ${e.op} on ${typeToString(at.elem)}`);
        indices(memoryDims(at).length, e.indices, e.array.name);
        e.args.forEach((a) => {
          expr(a);
          same(a, at.elem, `operand of atomic ${e.op}`);
        });
        if (e.args.length !== (e.op === "cas" ? 2 : 1)) where(`atomic ${e.op} with ${e.args.length} operands`);
        same(e, at.elem, `atomic ${e.op}`);
        return;
      }
      case "warp": {
        const rule = warpBuiltin(e.op).rule;
        e.args.forEach((a) => expr(a));
        // ldmatrix's one operand is the lane's row, a load4 of its (arr, i).
        if (e.args.length !== (rule.shape === "ldmatrix" ? 1 : rule.params.length)) where(`${e.op} with ${e.args.length} operands`);
        const [v, lane] = e.args;
        switch (rule.shape) {
          case "shuffle":
            if (v?.type.kind !== "scalar" || !SHUFFLE_TYPES.includes(v.type.name)) where(`${e.op} of a bad value type`);
            else same(v, e.type, `result of ${e.op}`);
            if (lane) same(lane, T.i32, `lane operand of ${e.op}`);
            return;
          case "vote":
            if (v) same(v, T.bool, `operand of ${e.op}`);
            same(e, rule.result === "u32" ? T.u32 : T.bool, `result of ${e.op}`);
            return;
          case "match":
            if (v?.type.kind !== "scalar" || !isInt(v.type)) where(`${e.op} of a non-integer`);
            same(e, rule.result === "u32" ? T.u32 : T.bool, `result of ${e.op}`);
            return;
          case "sync":
            if (e.type.kind !== "void") where(`${e.op} has a value`);
            return;
          case "ldmatrix": {
            const row = e.args[0];
            if (e.args.length !== 1 || row?.kind !== "load" || row.vector !== 4 || !sameType(row.type, vectorType(T.u32, 4)) || memorySpace(row.array.type) !== "shared") where(`${e.op} of something but a load4 of a shared u32 array`);
            return;
          }
          case "mma": {
            const fits = rule.mma!.signatures.some((s) => e.args.length === 3 && sameType(e.args[0]!.type, s.a) && sameType(e.args[1]!.type, s.b) && sameType(e.args[2]!.type, s.c) && sameType(e.type, s.c));
            if (!fits) where(`${e.op} with fragments of the wrong types`);
            return;
          }
        }
        return assertNever(rule.shape, "warp shape");
      }
      case "member": {
        expr(e.operand);
        const ot = e.operand.type;
        if (e.path.length === 0) where("a member with an empty path");
        if (ot.kind === "void") return;
        const pt = pathFrom(ot, e.path, "a member");
        if (pt) same(e, pt, "member");
        return;
      }
      case "construct": {
        e.args.forEach((a) => expr(a));
        const ct = e.type;
        if (ct.kind === "vector") {
          const splat = e.args.length === 1 && e.args[0]!.type === ct.elem;
          const lanes = e.args.reduce((n, a) => n + (a.type === ct.elem ? 1 : a.type.kind === "vector" && a.type.elem === ct.elem ? a.type.lanes : NaN), 0);
          if (!splat && lanes !== ct.lanes) where(`construct of ${typeToString(ct)} from ${e.args.map((a) => typeToString(a.type)).join(", ")}`);
          return;
        }
        const want = ct.fields.flatMap((f) => (f.type.kind === "array" ? Array.from({ length: elementCount(f.type) }, () => (f.type as ArrayType).elem) : [f.type]));
        if (want.length !== e.args.length) where(`construct of ${ct.name} with ${e.args.length} args for ${want.length}`);
        else e.args.forEach((a, i) => same(a, want[i]!, `field value ${i} of ${ct.name}`));
        return;
      }
      case "swizzle": {
        expr(e.operand);
        const ot = e.operand.type;
        if (ot.kind !== "vector" || e.lanes.some((k) => k >= ot.lanes) || e.type !== vectorType(ot.elem, e.lanes.length as 2 | 3 | 4)) where(`swizzle of ${typeToString(ot)}`);
        return;
      }
      case "zero":
        return;
    }
    assertNever(e, "expression");
  };

  const indices = (dims: number, ix: readonly Expr[], name: string) => {
    if (ix.length !== dims) where(`${name} indexed with ${ix.length} indices for ${dims} dimensions`);
    for (const i of ix) {
      expr(i);
      if (i.type.kind !== "scalar" || !isInt(i.type)) where(`non-integer index of ${name}`);
    }
  };

  const block = (list: readonly Stmt[], loops: number) => {
    scopes.push(new Set());
    list.forEach((s) => stmt(s, loops));
    scopes.pop();
  };

  const stmt = (s: Stmt, loops: number): void => {
    switch (s.kind) {
      case "let":
        expr(s.init);
        if (s.init.type !== s.var.type) where(`let ${s.var.name} initialized with the wrong type`);
        declare(s.var.id, s.var.name);
        return;
      case "localArray":
        if (s.array.type.kind !== "array" || s.array.type.space !== "local") where(`local array ${s.array.name} has type ${typeToString(s.array.type)}`);
        s.init?.forEach((x) => {
          expr(x);
          if (x.type !== s.array.type.elem) where(`element of ${s.array.name} has the wrong type`);
        });
        if (s.init && s.array.type.kind === "array" && s.init.length !== s.array.type.dims.reduce((a, b) => a * b, 1)) where(`initializer of ${s.array.name} has the wrong length`);
        declare(s.array.id, s.array.name);
        return;
      case "assign": {
        const pt = pathFrom(s.var.type, s.path, `an assignment to ${s.var.name}`);
        expr(s.value);
        if (!inScope(s.var.id)) where(`assignment to ${s.var.name} outside its scope`);
        if (!s.var.mutable) where(`assignment to const ${s.var.name}`);
        if (pt && s.value.type !== pt) where(`assignment to ${s.var.name} with the wrong type`);
        return;
      }
      case "store": {
        if (!inScope(s.array.id)) where(`store to ${s.array.name} outside its scope`);
        if (isReadonlyMemory(s.array.type)) where(`store to readonly ${s.array.name}`);
        if (s.order && !orderable(s.array.type)) where(`${s.order} store to ${s.array.name} (${typeToString(s.array.type)})`);
        if (s.cache && (s.cache !== "streaming" || memorySpace(s.array.type) !== "global" || s.order || s.path.length > 0)) where(`${s.cache} store to ${s.array.name} (${typeToString(s.array.type)})`);
        indices(memoryDims(s.array.type).length, s.indices, s.array.name);
        const elem = s.array.type.elem;
        const pt = s.vector !== null ? (elem.kind === "scalar" && s.path.length === 0 ? vectorType(elem, s.vector) : undefined) : pathFrom(elem, s.path, `a store to ${s.array.name}`);
        expr(s.value);
        if (s.vector !== null && !pt) where(`vector store to ${s.array.name}, which holds ${typeToString(elem)}`);
        if (pt && s.value.type !== pt) where(`store to ${s.array.name} with the wrong type`);
        return;
      }
      case "expr":
        expr(s.expr, true);
        return;
      case "if":
        expr(s.cond);
        if (s.cond.type.kind !== "scalar" || !isBool(s.cond.type)) where("if condition is not bool");
        block(s.then, loops);
        block(s.else, loops);
        return;
      case "loop":
        scopes.push(new Set());
        s.init.forEach((x) => stmt(x, loops));
        if (s.cond) {
          expr(s.cond);
          if (s.cond.type.kind !== "scalar" || !isBool(s.cond.type)) where("loop condition is not bool");
        }
        if (s.unroll !== undefined && s.unroll !== "full" && !(Number.isInteger(s.unroll) && s.unroll >= 1)) where(`unroll by ${s.unroll}`);
        block(s.body, loops + 1);
        block(s.step, 0); // a step cannot break or continue its loop
        scopes.pop();
        return;
      case "break":
      case "continue":
        if (loops === 0) where(`${s.kind} outside a loop`);
        return;
      case "return":
        if (s.value) {
          expr(s.value);
          if (s.value.type !== f.returnType) where("return value of the wrong type");
        } else if (f.returnType.kind !== "void") where("return without a value");
        return;
      case "asyncCopy": {
        const d = s.dst.type, src = s.src.type;
        if (!inScope(s.dst.id) || !inScope(s.src.id)) where(`cp.async between ${s.src.name} and ${s.dst.name} outside their scope`);
        if (d.kind !== "array" || d.space !== "shared" || src.kind !== "global") where(`cp.async from ${s.src.name} (${typeToString(src)}) to ${s.dst.name} (${typeToString(d)})`);
        if (d.elem.kind !== "scalar" || d.elem !== src.elem || s.bytes % sizeOf(d.elem) !== 0) where(`cp.async of ${s.bytes} bytes between arrays of ${typeToString(src.elem)} and ${typeToString(d.elem)}`);
        if (s.cache === "global" && s.bytes !== 16) where(`cp.async.cg of ${s.bytes} bytes`);
        indices(memoryDims(d).length, s.dstIndices, s.dst.name);
        indices(memoryDims(src).length, s.srcIndices, s.src.name);
        if (s.valid) {
          expr(s.valid);
          if (s.valid.type !== T.i32) where("cp.async's valid count is not i32");
        }
        return;
      }
      case "asyncGroup":
        if (!(Number.isInteger(s.pending) && s.pending >= 0) || (s.op !== "wait" && s.pending !== 0)) where(`${s.op} of cp.async groups with ${s.pending} pending`);
        return;
      case "barrier":
      case "fence":
        return;
      case "block":
        block(s.body, loops);
        return;
    }
    assertNever(s, "statement");
  };

  block(f.body, 0);
}
