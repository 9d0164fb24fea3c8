/**
 * What the kernel generator reaches: every operator on every type it applies to, every
 * conversion, every builtin of the table with every operand type it takes, every atomic
 * (own slots, and contended on global and shared memory), every shuffle on every type it
 * moves, every vote and match (syncWarp apart: it orders memory, which generated kernels never
 * share within a warp), every statement form, the fast builtins, dynamic shared and constant
 * arrays, views and references, and @unroll; vectors of every type (f16x2 and bf16x2 among them) with every operator
 * and builtin that takes them, swizzles, constructors, vector loads and stores (of arrays of
 * vectors, and load2/load4/store2/store4 of arrays of scalars in global, shared and local
 * memory); structs with vector, array and struct fields, struct values, field reads and
 * assignments, arrays of structs in every memory, struct parameters and results. Over
 * 3,000 kernels from a fixed seed (a statement about the generator, not about one run's
 * luck); a builtin added to the table is covered without changes here. Every element type is
 * read or written in every memory space (global, shared, local, constant tables), and the
 * small integers and f16/bf16 each appear in enough kernels: the counts are printed. bitcast
 * reaches every pair of scalars of one size and the half vectors.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtins, type AtomicEntry, type CacheHintEntry, type WarpEntry } from "../../src/ir/builtins.js";
import { MATCH_TYPES } from "../../src/ir/warpBuiltins.js";
import { ALL_TYPES, FLOAT_TYPES, HALF_LANE_TYPES, INT_TYPES, LANE_TYPES, NUM_TYPES, vec, type Program, type Ty } from "../../src/testing/gen/ast.js";
import { EXACT_USES, MATH, mathUses } from "../../src/testing/gen/expr.js";
import { CONSTRAINTS } from "../../src/testing/gen/generic.js";
import { bitsOf } from "../../src/testing/gen/bitcasts.js";
import { arbProgram, features, genericUse } from "../../src/testing/gen/index.js";

function expectedFeatures(): string[] {
  const want: string[] = [];
  for (const t of INT_TYPES) for (const op of ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "==", "!=", "<", "<=", ">", ">="]) want.push(`op:${t}:${op}`);
  for (const t of FLOAT_TYPES) for (const op of ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">="]) want.push(`op:${t}:${op}`);
  for (const t of ALL_TYPES) for (const space of ["global", "shared", "local", "table"]) want.push(`mem:${space}:${t}`);
  for (const op of ["&", "|", "^", "==", "!=", "&&", "||"]) want.push(`op:bool:${op}`);
  for (const t of NUM_TYPES) want.push(`unary:${t}:-`);
  for (const t of INT_TYPES) want.push(`unary:${t}:~`);
  want.push("unary:bool:!");
  for (const a of ALL_TYPES) for (const b of ALL_TYPES) if (a !== b) want.push(`cast:${a}->${b}`);
  // bitcast between every two numeric scalars of one size.
  for (const a of NUM_TYPES) for (const b of NUM_TYPES) if (a !== b && bitsOf(a) === bitsOf(b)) want.push(`bitcast:${a}->${b}`);
  for (const m of mathUses(MATH)) want.push(`builtin:${m.entry.name}:${m.operand}`);
  for (const b of builtins.filter((x): x is AtomicEntry => x.rule.kind === "atomic")) {
    for (const t of b.rule.types) want.push(`atomic:${b.name}:${t}:own`);
  }
  for (const w of builtins.filter((x): x is WarpEntry => x.rule.kind === "warp")) {
    if (w.rule.shape === "shuffle") for (const t of NUM_TYPES) want.push(`builtin:${w.name}:${t}`);
    if (w.rule.shape === "vote") want.push(`builtin:${w.name}:bool`);
    if (w.rule.shape === "match") for (const t of MATCH_TYPES) want.push(`builtin:${w.name}:${t}`);
  }
  // Memory and control: dynamic shared arrays, constant arrays, views of every kind of array
  // (whole, rows, strided), references to variables, local elements and own slots, @unroll.
  want.push("stmt:shared:dynamic", "constant:read", "param:view", "param:view:readonly", "param:inout", "param:out", "unroll:full", "unroll:N");
  for (const k of ["input", "constant", "local", "shared", "own", "view"]) want.push(`view:${k}`, `view:${k}:stride`);
  want.push("view:input:whole", "view:local:row", "view:shared:row", "ref:var", "ref:own", "ref:local");
  for (const s of ["if", "if-else", "else-if", "for", "for(;;)", "while", "doWhile", "break", "continue", "block", "barrier"]) want.push(`stmt:${s}`);
  want.push("stmt:return:kernel", "stmt:return:fn", "stmt:return:fn:value", "barrier:in-loop", "stmt:let:zero", "stmt:shadowing");
  want.push("stmt:localArray:1d", "stmt:localArray:2d:init", "stmt:localArray:2d:flat", "stmt:shared:0d", "stmt:shared:1d", "stmt:shared:2d", "atomic:partly-indexed");
  want.push("step:prefix++", "step:prefix--", "step:postfix++", "step:postfix--", "call:value", "call:void", "const:typed", "const:untyped");
  for (const c of CONSTRAINTS) want.push(`generic:fn:${c.text}`, `generic:fn:${c.text}:sized`);
  for (const t of NUM_TYPES) want.push(`generic:instance:${t}`);
  want.push("generic:call:inferred", "generic:call:explicit", "generic:call:sized", "generic:kernel");
  // Cache hints on the kernel's inputs and outputs (loadReadOnly on its readonly inputs): of
  // f32 and of an f32x4 element, the 2- and 4-lane forms of f16 too; launch bounds, with and without minBlocks.
  for (const b of builtins.filter((x): x is CacheHintEntry => x.rule.kind === "cacheHint")) {
    want.push(`builtin:${b.name}:f32`, b.rule.lanes === 1 ? `builtin:${b.name}:f32x4` : `builtin:${b.name}:f16`);
  }
  want.push("vector:storeStreaming:global", "kernel:launchBounds", "kernel:launchBounds:minBlocks");
  for (const s of ["threadIdx.x", "threadIdx.y", "blockIdx.x", "blockIdx.y", "blockDim.x", "gridDim.x", "globalId.x", "globalId.y"]) want.push(`special:${s}`);
  return [...new Set(want)];
}

const LANES = [2, 3, 4] as const;

function expectedVectorFeatures(): string[] {
  const want: string[] = [];
  for (const t of LANE_TYPES) for (const n of LANES) want.push(`vector:type:${vec(t, n)}`);
  for (const op of ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "==", "!=", "<", "<=", ">", ">="]) want.push(`vector:op:${op}`);
  for (const f of ["broadcast", "unary:-", "unary:~", "unary:!", "lane", "swizzle", "rgba", "splat", "lanes", "parts", "convert", "call", "step"]) want.push(`vector:${f}`);
  for (const f of ["local", "local:zero", "kernel-value", "fn-param", "fn-return", "fn-array", "assign:=", "assign:+=", "assign:*=", "assign:<<=", "assign:&="]) want.push(`vector:${f}`);
  for (const where of ["global", "shared", "local"]) want.push(`vector:array:${where}`, `vector:load2:${where}`, `vector:load4:${where}`);
  want.push("vector:store2:global", "vector:store4:global", "vector:store2:local", "vector:store4:local", "assign:lane");
  for (const t of LANE_TYPES) for (const fn of ["load2", "load4", "store2", "store4"]) want.push(`builtin:${fn}:${t}`);
  // f16x2 and bf16x2: their types, load2/store2 of f16 and bf16 arrays, arrays of them in global
  // memory, the vector builtins and select on them (their math builtins: below).
  for (const t of HALF_LANE_TYPES) {
    want.push(`vector:type:${vec(t, 2)}`, `builtin:load2:${t}`, `builtin:store2:${t}`, `mem:global:${vec(t, 2)}`, `select:${vec(t, 2)}`);
    for (const fn of ["dot", "length", "distance", "normalize"]) want.push(`builtin:${fn}:${vec(t, 2)}`);
  }
  for (const n of LANES) {
    want.push(`builtin:select:${vec("bool", n)}`, `builtin:any:${vec("bool", n)}`, `builtin:all:${vec("bool", n)}`, `select:${vec("f32", n)}`);
    for (const t of ["f32", "f64"] as const) for (const fn of ["dot", "length", "distance", "normalize"]) want.push(`builtin:${fn}:${vec(t, n)}`);
  }
  want.push("builtin:cross:f32x3", "builtin:cross:f64x3");
  // f16x4, f16x8, bf16x4, bf16x8: their types, 8- and 16-byte accesses of f16 and bf16 arrays, their lanes past the fourth.
  for (const t of HALF_LANE_TYPES) {
    for (const n of [4, 8] as const) want.push(`vector:type:${vec(t, n)}`, `builtin:load${n}:${t}`, `builtin:store${n}:${t}`);
  }
  want.push("vector:type:boolx8", "vector:load:dynamic");
  // Atomics on a device function's view parameter (issue 21 item 5), of 32- and 64-bit integers at least.
  for (const t of ["i32", "u32", "u64"]) want.push(`atomic:atomicAdd:${t}:view`);
  // bitcast to and from half vectors (the kinds of bitcast between other vectors: below).
  for (const t of HALF_LANE_TYPES) want.push(`bitcast:u32->${vec(t, 2)}`, `bitcast:${vec(t, 2)}->u32`);
  return want;
}

function expectedStructFeatures(): string[] {
  const want = ["struct:type:struct", "struct:value", "struct:field", "struct:field:array", "struct:nested", "struct:vector-field", "assign:field", "struct:call"];
  for (const f of ["local", "local:zero", "assign:=", "kernel-value", "fn-param", "fn-return", "fn-array"]) want.push(`struct:${f}`);
  for (const where of ["global", "shared", "local"]) want.push(`struct:array:${where}`);
  return want;
}

/** The features of kernels in a sample that use a new scalar type in each way, by the feature names of coverage.ts. */
const USES: Readonly<Record<string, (t: Ty) => (f: string) => boolean>> = {
  arithmetic: (t) => (f) => f.startsWith(`op:${t}:`) || f.startsWith(`unary:${t}:`),
  conversions: (t) => (f) => f.startsWith(`cast:${t}->`) || f.endsWith(`->${t}`),
  global: (t) => (f) => f === `mem:global:${t}`,
  shared: (t) => (f) => f === `mem:shared:${t}`,
  local: (t) => (f) => f === `mem:local:${t}`,
  table: (t) => (f) => f === `mem:table:${t}`,
  atomics: (t) => (f) => f.startsWith("atomic:") && f.split(":")[2] === t,
  math: (t) => (f) => f.startsWith("builtin:") && f.endsWith(`:${t}`) && !/^builtin:shfl/.test(f),
  shuffles: (t) => (f) => /^builtin:shfl/.test(f) && f.endsWith(`:${t}`),
};
const NEW_TYPES: readonly Ty[] = ["i8", "u8", "i16", "u16", "f16", "bf16"];

describe("the kernel generator's coverage", () => {
  const kernels = new Map<string, number>();
  let sampled: Program[] | undefined;
  let perKernelSets: Set<string>[] | undefined;
  const programs = () => (sampled ??= fc.sample(arbProgram(), { seed: 20240611, numRuns: 3000 }));
  const perKernel = () => (perKernelSets ??= programs().map(features));
  const seenFeatures = () => {
    if (kernels.size === 0) {
      for (const fs of perKernel()) {
        for (const f of fs) kernels.set(f, (kernels.get(f) ?? 0) + 1);
        for (const kind of ["vector", "struct"]) if ([...fs].some((f) => f.startsWith(`${kind}:`))) kernels.set(`${kind}:(any)`, (kernels.get(`${kind}:(any)`) ?? 0) + 1);
      }
    }
    return kernels.keys();
  };

  it("uses each small integer type and f16/bf16 in every way in many kernels (counts of 3,000)", () => {
    const rows = NEW_TYPES.map((t) => [t, ...Object.values(USES).map((use) => perKernel().filter((fs) => [...fs].some(use(t))).length)] as const);
    console.log(["| type | " + Object.keys(USES).join(" | ") + " |", `| --- |${" --- |".repeat(Object.keys(USES).length)}`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n"));
    for (const [t, ...counts] of rows) counts.forEach((n, i) => expect(n, `${t} ${Object.keys(USES)[i]}`).toBeGreaterThanOrEqual(20));
  });

  it("reaches every operator, conversion, builtin, atomic, memory space and statement form in 3,000 kernels", () => {
    const seen = new Set(seenFeatures());
    console.log(genericUse(programs()));
    expect(expectedFeatures().filter((f) => !seen.has(f))).toEqual([]);
    const contended = (where: string) => [...seen].filter((f) => f.startsWith("atomic:") && f.endsWith(`:${where}`)).map((f) => f.split(":")[1]);
    for (const fn of ["atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor"]) {
      expect(contended("global"), `${fn} on global accumulators`).toContain(fn);
      expect(contended("shared"), `${fn} on shared accumulators`).toContain(fn);
    }
  });

  it("reaches every tensor-core builtin (every mma shape, ldmatrix variant) and asynchronous copy, each in tens of kernels", () => {
    const names = builtins.filter((b) => (b.rule.kind === "warp" && (b.rule.shape === "mma" || b.rule.shape === "ldmatrix")) || b.rule.kind === "asyncCopy").map((b) => b.name);
    const counts = names.map((n) => [n, perKernel().filter((fs) => [...fs].some((f) => f.startsWith(`builtin:${n}:`))).length] as const);
    console.log(counts.map(([n, c]) => `${n} ${c}`).join(", "));
    for (const [n, c] of counts) expect(c, n).toBeGreaterThanOrEqual(10);
  });

  it("reaches vectors of every type (f16x2 and bf16x2 too) with every operator and builtin, and vector loads and stores in every memory", () => {
    const seen = new Set(seenFeatures());
    expect(expectedVectorFeatures().filter((f) => !seen.has(f))).toEqual([]);
    // Every exact math builtin lane by lane, on some lane count (f16 and bf16: on 2, 4 or 8 lanes).
    const vectorOf = (t: Ty) => (LANE_TYPES.includes(t) ? LANES : HALF_LANE_TYPES.includes(t) ? ([2, 4, 8] as const) : []);
    const missing = EXACT_USES.filter((m) => vectorOf(m.operand).length > 0 && vectorOf(m.result).length > 0 && !vectorOf(m.operand).some((n) => seen.has(`builtin:${m.entry.name}:${vec(m.operand, n)}`)));
    expect(missing.map((m) => `${m.entry.name}:${m.operand}`)).toEqual([]);
    // bitcast from scalars to vectors, from vectors to scalars, and between vectors, each of 64 bits or more too.
    const bitcasts = [...seen].filter((f) => f.startsWith("bitcast:")).map((f) => f.slice(8).split("->") as [string, string]);
    const isVector = (t: string) => /x\d$/.test(t);
    const wide = (t: string) => (bitsOf(t as Ty) ?? 0) >= 64;
    for (const [from, to] of [[false, true], [true, false], [true, true]]) {
      expect(bitcasts.some(([a, b]) => isVector(a) === from && isVector(b) === to && wide(a) && wide(b)), `a bitcast from a ${from ? "vector" : "scalar"} to a ${to ? "vector" : "scalar"}`).toBe(true);
    }
  });

  it("reaches structs with every kind of field, their values, fields and arrays in every memory, as parameters and results", () => {
    const seen = new Set(seenFeatures());
    expect(expectedStructFeatures().filter((f) => !seen.has(f))).toEqual([]);
    // How many of the kernels use each vector and struct feature (printed for the record).
    seenFeatures();
    const counts = [...kernels].filter(([f]) => /^(vector|struct):/.test(f) && !f.includes(":type:")).sort(([a], [b]) => a.localeCompare(b));
    console.log(`vector and struct features in 3,000 kernels (kernels using each):\n${counts.map(([f, n]) => `  ${f}: ${n}`).join("\n")}`);
  });
});
