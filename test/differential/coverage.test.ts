/**
 * What the kernel generator reaches: every operator on every type it applies to, every
 * conversion, every builtin of the table with every operand type it takes, every atomic
 * (own slots, and contended on global and shared memory), every shuffle on every type it
 * moves and every vote (syncWarp apart: it orders memory, which generated kernels never
 * share within a warp), and every statement form. Over
 * 2,000 kernels from a fixed seed (a statement about the generator, not about one run's
 * luck); a builtin added to the table is covered without changes here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtins, type AtomicEntry, type WarpEntry } from "../../src/ir/builtins.js";
import { ALL_TYPES, INT_TYPES, NUM_TYPES } from "../../src/testing/gen/ast.js";
import { MATH, mathUses } from "../../src/testing/gen/expr.js";
import { CONSTRAINTS } from "../../src/testing/gen/generic.js";
import { arbProgram, features, genericUse } from "../../src/testing/gen/index.js";

function expectedFeatures(): string[] {
  const want: string[] = [];
  for (const t of INT_TYPES) for (const op of ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "==", "!=", "<", "<=", ">", ">="]) want.push(`op:${t}:${op}`);
  for (const t of ["f32", "f64"]) for (const op of ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">="]) want.push(`op:${t}:${op}`);
  for (const op of ["&", "|", "^", "==", "!=", "&&", "||"]) want.push(`op:bool:${op}`);
  for (const t of NUM_TYPES) want.push(`unary:${t}:-`);
  for (const t of INT_TYPES) want.push(`unary:${t}:~`);
  want.push("unary:bool:!");
  for (const a of ALL_TYPES) for (const b of ALL_TYPES) if (a !== b) want.push(`cast:${a}->${b}`);
  for (const m of mathUses(MATH)) want.push(`builtin:${m.entry.name}:${m.operand}`);
  for (const b of builtins.filter((x): x is AtomicEntry => x.rule.kind === "atomic")) {
    for (const t of b.rule.types) want.push(`atomic:${b.name}:${t}:own`);
  }
  for (const w of builtins.filter((x): x is WarpEntry => x.rule.kind === "warp")) {
    if (w.rule.shape === "shuffle") for (const t of NUM_TYPES) want.push(`builtin:${w.name}:${t}`);
    if (w.rule.shape === "vote") want.push(`builtin:${w.name}:bool`);
  }
  for (const s of ["if", "if-else", "else-if", "for", "for(;;)", "while", "doWhile", "break", "continue", "block", "barrier"]) want.push(`stmt:${s}`);
  want.push("stmt:return:kernel", "stmt:return:fn", "stmt:return:fn:value", "barrier:in-loop", "stmt:let:zero", "stmt:shadowing");
  want.push("stmt:localArray:1d", "stmt:localArray:2d:init", "stmt:localArray:2d:flat", "stmt:shared:0d", "stmt:shared:1d", "stmt:shared:2d", "atomic:partly-indexed");
  want.push("step:prefix++", "step:prefix--", "step:postfix++", "step:postfix--", "call:value", "call:void", "const:typed", "const:untyped");
  for (const c of CONSTRAINTS) want.push(`generic:fn:${c.text}`, `generic:fn:${c.text}:sized`);
  for (const t of NUM_TYPES) want.push(`generic:instance:${t}`);
  want.push("generic:call:inferred", "generic:call:explicit", "generic:call:sized", "generic:kernel");
  for (const s of ["threadIdx.x", "threadIdx.y", "blockIdx.x", "blockIdx.y", "blockDim.x", "gridDim.x", "globalId.x", "globalId.y"]) want.push(`special:${s}`);
  return [...new Set(want)];
}

describe("the kernel generator's coverage", () => {
  it("reaches every operator, conversion, builtin, atomic and statement form in 2,000 kernels", () => {
    const seen = new Set<string>();
    const programs = fc.sample(arbProgram(), { seed: 20240611, numRuns: 2000 });
    for (const p of programs) for (const f of features(p)) seen.add(f);
    console.log(genericUse(programs));
    expect(expectedFeatures().filter((f) => !seen.has(f))).toEqual([]);
    const contended = (where: string) => [...seen].filter((f) => f.startsWith("atomic:") && f.endsWith(`:${where}`)).map((f) => f.split(":")[1]);
    for (const fn of ["atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor"]) {
      expect(contended("global"), `${fn} on global accumulators`).toContain(fn);
      expect(contended("shared"), `${fn} on shared accumulators`).toContain(fn);
    }
  });
});
