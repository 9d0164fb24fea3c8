/** The CUDA column of the builtin table (src/codegen/cuda/builtins.ts): every builtin, every type it admits, helpers that exist, and no entry for a builtin the table does not have. */
import { describe, expect, it } from "vitest";
import { CUDA_ASYNC_COPY, CUDA_ATOMICS, CUDA_CACHE_HINTS, CUDA_INDEX, CUDA_MATH, CUDA_MEMORY, CUDA_SYNC, CUDA_WARP, type CudaImpl } from "../../../src/codegen/cuda/builtins.js";
import { cudaHelperDeps, cudaHelpers } from "../../../src/codegen/cuda/helpers.js";
import { builtins, operandTypes } from "../../../src/ir/builtins.js";
import { assertNever } from "../../../src/util.js";

/** The CUDA of builtin `name` for type `t` (or its one implementation), where the column has it. */
function implFor(name: string, t?: string): CudaImpl | undefined {
  const b = builtins.find((x) => x.name === name)!;
  switch (b.rule.kind) {
    case "math":
      return CUDA_MATH[name]?.[t as "f32"];
    case "atomic":
      return CUDA_ATOMICS[name]?.[t as "f32"];
    case "memory":
      return CUDA_MEMORY[name]?.[t as "f32"];
    case "warp":
      return CUDA_WARP[name as keyof typeof CUDA_WARP];
    default:
      return undefined;
  }
}

describe("the CUDA column", () => {
  it("has CUDA for every type each builtin admits", () => {
    let n = 0;
    for (const b of builtins) {
      switch (b.rule.kind) {
        case "math":
          for (const t of operandTypes(b.rule)) expect(implFor(b.name, t), `${b.name}: CUDA for ${t}`).toBeDefined(), n++;
          break;
        case "atomic":
          for (const t of [...b.rule.types, ...(b.rule.vectors ?? [])]) expect(implFor(b.name, t), `${b.name}: CUDA for ${t}`).toBeDefined(), n++;
          break;
        case "memory":
          for (const t of b.rule.op.startsWith("fence") ? ["fence"] : b.rule.types) expect(implFor(b.name, t), `${b.name}: CUDA for ${t}`).toBeDefined(), n++;
          break;
        case "warp":
          expect(implFor(b.name), b.name).toBeDefined(), n++;
          break;
        case "sync":
          expect(CUDA_SYNC[b.name], b.name).toBeDefined(), n++;
          break;
        case "asyncCopy":
          expect(CUDA_ASYNC_COPY[b.name], b.name).toBeDefined(), n++;
          break;
        case "index":
          expect(typeof CUDA_INDEX[b.rule.special].value(0), b.name).toBe("string"), n++;
          break;
        // Constants are folded where they are used; vector builtins are IR over their lanes (src/ir/lanes.ts).
        case "constant":
        case "vector":
        case "vectorMemory":
          break;
        // A hinted access is a load or store; the hint's helper is the CUDA column's (CUDA_CACHE_HINTS).
        case "cacheHint":
          expect(CUDA_CACHE_HINTS[b.rule.hint][b.rule.op], b.name).toBeDefined(), n++;
          break;
        default:
          assertNever(b.rule, "builtin rule");
      }
    }
    expect(n).toBeGreaterThan(300);
  });

  it("has no entry for a builtin the table does not have, or of a kind it is not", () => {
    const kindOf = new Map(builtins.map((b) => [b.name, b.rule.kind]));
    const columns: [string, Record<string, unknown>][] = [
      ["math", CUDA_MATH],
      ["atomic", CUDA_ATOMICS],
      ["memory", CUDA_MEMORY],
      ["warp", CUDA_WARP],
      ["sync", CUDA_SYNC],
      ["index", CUDA_INDEX],
      ["asyncCopy", CUDA_ASYNC_COPY],
    ];
    for (const [kind, column] of columns) for (const name of Object.keys(column)) expect(kindOf.get(name), `${kind} ${name}`).toBe(kind);
  });

  it("names prelude helpers that exist, with their dependencies", () => {
    const impls = [...Object.values(CUDA_MATH), ...Object.values(CUDA_ATOMICS), ...Object.values(CUDA_MEMORY)].flatMap((perType) => Object.values(perType));
    for (const impl of [...impls, ...Object.values(CUDA_WARP), ...Object.values(CUDA_INDEX), ...Object.values(CUDA_ASYNC_COPY).map((f) => f(16))]) for (const h of impl?.helpers ?? []) expect(cudaHelpers[h], h).toBeDefined();
    for (const [h, deps] of Object.entries(cudaHelperDeps)) {
      expect(cudaHelpers[h as keyof typeof cudaHelpers]).toBeDefined();
      for (const d of deps) expect(cudaHelpers[d]).toBeDefined();
    }
  });
});
