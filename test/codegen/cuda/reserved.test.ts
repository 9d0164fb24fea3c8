/**
 * The reserved names (src/codegen/cuda/reserved.ts) cover what the installed nvcc's headers
 * define and declare: a toolkit that adds a name fails here, with the names to add, instead
 * of miscompiling a program that uses one.
 */
import { describe, expect, it } from "vitest";
import { isReservedIdentifier } from "../../../src/codegen/cuda/names.js";
import { kernelSymbolProblem } from "../../../src/codegen/cuda/reserved.js";
import { nvccPath } from "./helpers.js";
import { globalDeclarations, headerNames } from "./headerNames.js";

const nvcc = nvccPath();

describe.skipIf(!nvcc)("reserved names against the installed nvcc's headers", () => {
  it("reserves every macro everywhere, and every global declaration at global scope", async () => {
    const { macros, declarations } = await headerNames(nvcc!);
    expect(macros.size).toBeGreaterThan(100);
    expect(declarations.size).toBeGreaterThan(500);
    expect(declarations).toContain("sinf");
    expect(declarations).toContain("threadIdx");
    expect([...macros].filter((n) => !isReservedIdentifier(n, "local"))).toEqual([]);
    expect([...declarations].filter((n) => !isReservedIdentifier(n, "global"))).toEqual([]);
  });

  it("refuses every one of them as a kernel name, whose symbol is the name verbatim (GK2011)", async () => {
    const { macros, declarations } = await headerNames(nvcc!);
    expect([...macros, ...declarations].filter((n) => kernelSymbolProblem(n) === undefined)).toEqual([]);
    expect(kernelSymbolProblem("CUDAkernel2DCT")).toBeUndefined();
  });
});

describe("reading declarations from preprocessed C++", () => {
  it("finds functions, variables, typedefs, tags, enumerators and using-declarations at global scope only", () => {
    const names = globalDeclarations(`
# 1 "x.h"
extern "C" { extern double sin (double __x) noexcept (true); extern int signgam; }
typedef struct tag_s { int member; } alias_t;
typedef void (*callback_t)(void *userData);
enum color { red, green = 2, blue };
namespace std { int hidden(int); }
struct klass { int method(int arg); };
using std::hidden;
static inline int helper(int a) { int local = a; return local; }
`);
    expect([...names].sort()).toEqual(["alias_t", "blue", "callback_t", "color", "green", "helper", "hidden", "red", "signgam", "sin", "tag_s", "klass"].sort());
  });
});
