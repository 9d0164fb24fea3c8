/**
 * The top level of one file: its declarations, resolved lazily and once (so constants may
 * be declared in any order, and a constant defined in terms of itself is caught), and the
 * names it imports from other files.
 */
import type * as ast from "../parser/ast.js";
import { MAX_NESTING } from "../parser/nesting.js";
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { Expr } from "../ir/nodes.js";
import { byteSize, isLaneScalar, structDepth, structType, T, typeToString, type ArrayType, type ScalarType, type StructType, type ValueType } from "../ir/types.js";
import type { ArrayVar } from "../ir/nodes.js";
import { newCtx, tyName, type FnCtx, type ModuleScope } from "./context.js";
import { checkAs, checkValue, flattenLiteral, foldedConstant, untypedOf } from "./expr.js";
import { takenKernelName } from "./kernelNames.js";
import type { Target } from "../ir/target.js";
import { genericParams } from "./genericParams.js";
import { isReservedName } from "../ir/names.js";
import { resolveSignature } from "./signature.js";
import { type ModuleSymbol } from "./symbols.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import { LANE_LIST, resolveType, resolveValue, widerLane } from "./typeExpr.js";

type Decl = ast.KernelDecl | ast.FunctionDecl | ast.ConstDecl | ast.ConstantDecl | ast.StructDecl;

interface Entry {
  readonly decl: Decl;
  state: "pending" | "resolving" | "done";
  symbol?: ModuleSymbol;
}

interface ImportedName {
  readonly from: FileScope;
  readonly name: string;
  readonly span: ast.Ident["span"];
}

export class FileScope implements ModuleScope {
  private readonly own = new Map<string, Entry>();
  private readonly imported = new Map<string, ImportedName>();

  constructor(
    readonly file: string,
    readonly text: string,
    readonly items: readonly ast.Item[],
    private readonly log: DiagnosticLog,
    /** Unique IR names of every function and kernel of the program. */
    private readonly irNames: ReadonlyMap<ast.KernelDecl | ast.FunctionDecl, string>,
    /** Hands out the ids of `constant` arrays: negative, unique in the program. */
    private readonly constantIds: { next: number },
    readonly flushToZero: boolean,
    readonly target: Target,
  ) {
    for (const item of items) {
      if (item.kind === "Import" || item.kind === "Launch" || item.kind === "ModuleAnnotation") continue;
      const name = item.name;
      if (isReservedName(name.name)) {
        log.error("GK2009", name.span, `'${name.name}' is a reserved name in gk and cannot be declared`);
        continue;
      }
      const taken = item.kind === "Kernel" ? takenKernelName(name.name) : undefined;
      // Reported, but still declared: what uses the kernel checks as usual.
      if (taken) log.error("GK2010", name.span, `a kernel cannot be named '${name.name}': ${taken}; rename the kernel`);
      const symbol = item.kind === "Kernel" && !taken ? target.kernelSymbol.problem(name.name) : undefined;
      if (symbol) log.error("GK2011", name.span, `a kernel's name is ${target.kernelSymbol.what}, and '${name.name}' cannot be one: ${symbol}; rename the kernel`);
      const prev = this.own.get(name.name);
      if (prev) {
        log.error("GK2002", name.span, `'${name.name}' is already declared in this file`, [{ message: "first declared here", span: prev.decl.name.span }]);
        continue;
      }
      this.own.set(name.name, { decl: item, state: "pending" });
    }
  }

  /** Binds `import { a } from ...` names once the imported file's scope exists. */
  addImport(local: ast.Ident, from: FileScope): void {
    const prev = this.own.get(local.name);
    if (prev) {
      this.log.error("GK2002", local.span, `'${local.name}' is imported but also declared in this file`, [{ message: "declared here", span: prev.decl.name.span }]);
      return;
    }
    if (this.imported.has(local.name)) {
      this.log.error("GK2002", local.span, `'${local.name}' is imported twice`);
      return;
    }
    if (!from.own.has(local.name)) {
      this.log.error("GK6002", local.span, `'${from.file}' declares no '${local.name}'${didYouMean(local.name, from.own.keys())}`);
      this.imported.set(local.name, { from, name: local.name, span: local.span });
      return;
    }
    this.imported.set(local.name, { from, name: local.name, span: local.span });
  }

  names(): Iterable<string> {
    return [...this.own.keys(), ...this.imported.keys()];
  }

  /** Declarations of this file, in source order. */
  declarations(): Decl[] {
    return [...this.own.values()].map((e) => e.decl);
  }

  /** The struct types this file declares (those that check), in source order. */
  structs(): StructType[] {
    const out: StructType[] = [];
    for (const e of this.own.values()) {
      if (e.decl.kind !== "Struct") continue;
      const sym = this.lookup(e.decl.name.name);
      if (sym?.kind === "struct") out.push(sym.type);
    }
    return out;
  }

  lookup(name: string): ModuleSymbol | undefined {
    const imp = this.imported.get(name);
    if (imp) return imp.from.own.has(imp.name) ? imp.from.lookup(imp.name) : { kind: "poisoned", name, span: imp.span };
    const entry = this.own.get(name);
    if (!entry) return undefined;
    if (entry.state === "done") return entry.symbol;
    if (entry.state === "resolving") {
      if (entry.decl.kind === "Struct") {
        this.log.error("GK2040", entry.decl.name.span, `struct '${name}' contains itself: a struct cannot hold a value of its own type, directly or through other structs (hold an index into an array instead)`);
      } else {
        this.log.error("GK3014", entry.decl.name.span, `the constant '${name}' is defined in terms of itself`);
      }
      entry.symbol = { kind: "poisoned", name, span: entry.decl.name.span };
      entry.state = "done";
      return entry.symbol;
    }
    entry.state = "resolving";
    const sym = this.resolve(entry.decl);
    if (entry.state === "resolving") {
      entry.symbol = sym;
      entry.state = "done";
    }
    return entry.symbol;
  }

  /** `const W: f32[2][3] = [...]`: every element a constant expression of the element type, folded. */
  private constArray(ctx: FnCtx, d: ast.ConstDecl, te: ast.ArrayTypeExpr): ModuleSymbol {
    const name = d.name.name;
    const span = d.name.span;
    const t = resolveType(ctx, te, "local");
    if (!t || t.kind !== "array") return { kind: "poisoned", name, span };
    if (t.elem.kind !== "scalar") {
      this.log.error("GK4007", te.span, `a constant array holds scalars, not ${typeToString(t.elem)}: declare the table in the function that reads it, as a local array`);
      return { kind: "poisoned", name, span };
    }
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (count * byteSize(t.elem) > this.target.limits.localBytes) {
      this.log.error("GK4009", te.span, `'${name}' has ${count * byteSize(t.elem)} bytes; a constant table is limited to ${this.target.limits.localBytes} bytes (pass large data as a readonly global array)`);
      return { kind: "poisoned", name, span };
    }
    if (d.init.kind !== "ArrayLit") {
      this.log.error("GK3013", d.init.span, `a constant array is initialized with an array literal: const ${name}: ${tyName(t)} = [...];`);
      return { kind: "poisoned", name, span };
    }
    const flat = flattenLiteral(d.init);
    if (flat.length !== count) {
      this.log.error("GK3004", d.init.span, `'${name}' has ${count} elements but the initializer has ${flat.length}`);
      return { kind: "poisoned", name, span };
    }
    const values: Expr[] = [];
    for (const el of flat) {
      const v = checkAs(ctx, el, t.elem, `an element of '${name}'`);
      const f = v && foldedConstant(ctx, v, el, "an element of a module-level constant array");
      if (!f) return { kind: "poisoned", name, span };
      values.push(f);
    }
    return { kind: "constArray", name, type: { ...t, space: "local" }, values, span };
  }

  /** `struct Name { ... }`: each field's type resolved (a struct field looks its struct up, which finds a struct that contains itself). */
  private struct(ctx: FnCtx, d: ast.StructDecl): ModuleSymbol {
    const name = d.name.name;
    const span = d.name.span;
    const fields: { name: string; type: ValueType | ArrayType }[] = [];
    let ok = true;
    for (const f of d.fields) {
      const prev = d.fields.find((g) => g !== f && g.name.name === f.name.name);
      if (prev && d.fields.indexOf(prev) < d.fields.indexOf(f)) {
        this.log.error("GK2002", f.name.span, `field '${f.name.name}' is declared twice in struct '${name}'`, [{ message: "first declared here", span: prev.name.span }]);
        ok = false;
        continue;
      }
      const t = resolveType(ctx, f.type, "field");
      if (!t || (t.kind !== "array" && t.kind !== "scalar" && t.kind !== "vector" && t.kind !== "struct")) {
        ok = false;
        continue;
      }
      const leaf = t.kind === "array" ? t.elem : t;
      if (leaf.kind === "scalar" && !isLaneScalar(leaf)) {
        this.log.error("GK2041", f.type.span, `field '${f.name.name}' of struct '${name}' is of ${leaf.name}: struct fields hold ${LANE_LIST} values, vectors and structs, not the 1- and 2-byte types; use ${widerLane(leaf)}`);
        ok = false;
        continue;
      }
      fields.push({ name: f.name.name, type: t.kind === "array" ? { ...t, space: "local" } : t });
    }
    if (ok && d.fields.length === 0) {
      this.log.error("GK2040", d.name.span, `struct '${name}' has no fields: give it at least one`);
      ok = false;
    }
    if (!ok) return { kind: "poisoned", name, span };
    const type = structType(name, fields);
    // Every pass after the checker walks a struct's fields recursively: structs nest as deep as brackets may.
    const depth = structDepth(type);
    if (depth > MAX_NESTING) {
      this.log.error("GK1014", d.name.span, `struct '${name}' nests ${depth} structs deep; a struct nests at most ${MAX_NESTING} deep, as brackets do: flatten some of its fields`);
      return { kind: "poisoned", name, span };
    }
    if (type.size > this.target.limits.localBytes) {
      this.log.error("GK4009", d.name.span, `struct '${name}' takes ${type.size} bytes; a value is limited to ${this.target.limits.localBytes} bytes (keep large data in global arrays)`);
      return { kind: "poisoned", name, span };
    }
    return { kind: "struct", name, type, span };
  }

  /** `constant TAPS: f32[17];`: an array of constant memory, within the target's limit (CUDA: 64 KiB), each launch filling it. */
  private constantArray(ctx: FnCtx, d: ast.ConstantDecl): ModuleSymbol {
    const name = d.name.name;
    const span = d.name.span;
    if (d.type.kind !== "ArrayType" || d.type.shared || d.type.unsized) {
      this.log.error("GK4007", d.type.span, `a constant array has a scalar element type and constant sizes: constant ${name}: f32[16];`);
      return { kind: "poisoned", name, span };
    }
    const t = resolveType(ctx, d.type, "constant");
    if (!t || t.kind !== "array") return { kind: "poisoned", name, span };
    if (t.elem.kind !== "scalar") {
      this.log.error("GK2043", d.type.span, `constant memory holds arrays of scalars, not of ${typeToString(t.elem)}: declare 'constant ${name}: <scalar>[N];' and build the ${t.elem.kind} from its elements, or pass the ${t.elem.kind}s in a readonly global array`);
      return { kind: "poisoned", name, span };
    }
    const bytes = t.dims.reduce((a, b) => a * b, 1) * byteSize(t.elem);
    if (bytes > this.target.limits.constantBytes) {
      this.log.error("GK4014", d.type.span, `'${name}' has ${bytes} bytes; a module's constant memory holds at most ${this.target.limits.constantBytes} bytes (pass large data as a readonly global array)`);
      return { kind: "poisoned", name, span };
    }
    const array: ArrayVar = { kind: "arrayVar", id: this.constantIds.next--, name, type: t, span };
    return { kind: "constantArray", name, array, span };
  }

  private resolve(d: Decl): ModuleSymbol {
    const span = d.name.span;
    const name = d.name.name;
    const ctx = newCtx(this.log, this, "const", name, T.void);
    if (d.kind === "Struct") return this.struct(ctx, d);
    if (d.kind === "Constant") return this.constantArray(ctx, d);
    if (d.kind === "Const") {
      if (d.type?.kind === "ArrayType" && !d.type.shared) return this.constArray(ctx, d, d.type);
      let type: ScalarType | undefined;
      if (d.type) {
        const t = resolveValue(ctx, d.type, "const");
        if (!t || t === "void" || t.kind !== "scalar") return { kind: "poisoned", name, span };
        type = t;
      }
      const u = untypedOf(ctx, d.init);
      if (ctx.poisoned.has(d.init)) return { kind: "poisoned", name, span };
      if (u && !type) return { kind: "untypedConst", name, value: u, span };
      const v = type ? checkAs(ctx, d.init, type, `'${name}'`) : checkValue(ctx, d.init);
      const f = v && foldedConstant(ctx, v, d.init, "a module-level const");
      if (!f) return { kind: "poisoned", name, span };
      return { kind: "typedConst", name, type: f.type, value: f.value, span };
    }
    const irName = this.irNames.get(d) ?? name;
    if (d.generics) {
      const params = genericParams(ctx, d.generics, d.kind === "Kernel" ? "kernel" : "function");
      if (!params) return { kind: "poisoned", name, span };
      return { kind: "generic", of: d.kind === "Kernel" ? "kernel" : "function", name, irName, decl: d, params, scope: this, span };
    }
    const sig = resolveSignature(ctx, d);
    if (!sig) return { kind: "poisoned", name, span };
    return d.kind === "Kernel" ? { kind: "kernel", name, irName, decl: d, sig, span } : { kind: "function", name, irName, decl: d, sig, span };
  }
}
