/**
 * Modules whose names collide with everything C++, CUDA and the headers nvcc includes know,
 * and with the backend's own names; nvcc.test.ts compiles them.
 */
import type { SourceLookup } from "../../../src/codegen/cuda/index.js";
import { makeSourceFile } from "../../../src/diagnostics/source.js";
import type { Expr, Module, Stmt } from "../../../src/ir/nodes.js";
import { T } from "../../../src/ir/types.js";
import {
  CPP_KEYWORDS,
  CUDA_BUILTIN_VARIABLES,
  CUDA_VECTOR_TYPES,
  HEADER_DECLARATIONS,
  HEADER_MACROS,
  MATH_FAMILIES,
  MATH_SUFFIXES,
} from "../../../src/codegen/cuda/reserved.js";
import { bin, c, cast, deviceFn, i32, Ids, kernelFn, letS, load, moduleOf, ref, span, store } from "./ir.js";

/** Every name the backend reserves somewhere, plus its own internal names and names C++ cannot spell. */
export function collidingNames(): string[] {
  return [
    ...CPP_KEYWORDS,
    ...CUDA_BUILTIN_VARIABLES,
    ...HEADER_MACROS,
    ...HEADER_DECLARATIONS,
    ...CUDA_VECTOR_TYPES,
    ...MATH_FAMILIES.flatMap((f) => MATH_SUFFIXES.map((s) => f + s)),
    "gk_t1", "gk_t2", "gk_continue_1", "gk_div_i32", "gk_min_f32", "GK_X", "cudaMalloc", "cuInit", "CU_X", "atomicAdd_block",
    "make_float2", "__syncthreads", "__global__", "_Bool", "_x", "a__b", "x$", "$", "π", "1abc", "x_", "x_1", "int_", "",
  ];
}

/**
 * One kernel with a local of every colliding name (each read, so none is unused), in the
 * same scope as code that calls the builtin table's functions, the division helpers, a
 * device function, atomics and the index variables, and with temporaries and a label.
 */
export function localsModule(): Module {
  const fids = new Ids();
  const fa = fids.global("a", T.i32);
  const helper = deviceFn("helper", [fa], T.i32, [store(fa, [i32(0)], i32(1)), { kind: "return", value: load(fa, i32(1)), span }]);

  const ids = new Ids();
  const out = ids.global("out", T.i32);
  const f = ids.scalar("f", T.f32);
  const n = ids.scalar("n", T.i32);
  const body: Stmt[] = [];
  const names = collidingNames();
  names.forEach((name, k) => {
    const v = ids.scalar(name, T.i32);
    body.push(letS(v, i32(k)), store(out, [i32(k + 8)], bin("add", ref(v), i32(1))));
  });
  const builtin = (name: string, args: Expr[]): Expr => ({ kind: "builtin", type: args[0]!.type as typeof T.f32, name, args, span });
  const call: Expr = { kind: "call", type: T.i32, callee: "helper", args: [{ kind: "arrayArg", array: out, span }], span };
  const i = ids.scalar("i", T.i32);
  body.push(
    store(out, [i32(1)], cast(T.i32, builtin("min", [builtin("sqrt", [ref(f)]), builtin("fma", [ref(f), ref(f), ref(f)])]))),
    store(out, [i32(2)], bin("add", builtin("max", [ref(n), i32(3)]), builtin("abs", [ref(n)]))),
    store(out, [i32(3)], bin("add", bin("div", ref(n), bin("rem", ref(n), i32(7))), bin("add", call, load(out, i32(0))))),
    { kind: "expr", expr: { kind: "atomic", type: T.f32, op: "max", array: ids.global("fl", T.f32), indices: [i32(0)], args: [ref(f)], span }, span },
    store(out, [{ kind: "special", type: T.i32, name: "threadIdx", axis: 0, span }], { kind: "special", type: T.i32, name: "globalId", axis: 1, span }),
    { kind: "barrier", span },
    {
      kind: "loop",
      init: [letS(i, i32(0))],
      cond: bin("lt", ref(i), ref(n)),
      step: [{ kind: "assign", var: i, path: [], value: bin("add", ref(i), i32(1)), span }, store(out, [ref(i)], i32(0))],
      body: [{ kind: "if", cond: bin("eq", ref(i), i32(2)), then: [{ kind: "continue", span }], else: [], span }],
      testFirst: true,
      span,
    },
  );
  const fl = body.flatMap((s) => (s.kind === "expr" && s.expr.kind === "atomic" ? [s.expr.array] : []))[0]!;
  return moduleOf([kernelFn("locals", [out, f, n, fl], body)], [helper]);
}

/** Names for kernels and device functions: every keyword and macro kind, and a sample of the header names, to stay quick. */
function globalNames(): string[] {
  return [
    ...CPP_KEYWORDS,
    ...CUDA_BUILTIN_VARIABLES,
    ...HEADER_MACROS.filter((_, k) => k % 4 === 0),
    ...HEADER_DECLARATIONS.filter((_, k) => k % 4 === 0),
    ...CUDA_VECTOR_TYPES.filter((_, k) => k % 6 === 0),
    ...MATH_FAMILIES.flatMap((m, k) => (k % 3 === 0 ? [m, `${m}f`] : [])),
    "sinf", "free", "printf", "abs", "min", "max", "y0", "index", "signgam", "stdin", "dim3", "float4", "main", "std",
    "gk_div_i32", "gk_min_f32", "__syncthreads", "$", "π", "1abc", "",
  ].filter((n, k, all) => all.indexOf(n) === k);
}

/** A kernel named after each colliding name, each with a parameter of that name and a call of a device function. */
export function kernelsModule(): Module {
  const fids = new Ids();
  const x = fids.scalar("x", T.f32);
  const twice = deviceFn("twice", [x], T.f32, [{ kind: "return", value: bin("mul", ref(x), c(T.f32, 2)), span }]);
  const kernels = globalNames().map((name, k) => {
    const ids = new Ids();
    const o = ids.global(name, T.f32);
    const call: Expr = { kind: "call", type: T.f32, callee: "twice", args: [load(o, i32(0))], span };
    return kernelFn(name, [o], [store(o, [i32(k % 7)], call)]);
  });
  return moduleOf(kernels, [twice]);
}

/** A device function named after each colliding name, all called from one kernel. */
export function deviceFunctionsModule(): Module {
  const names = globalNames();
  const functions = names.map((name) => {
    const ids = new Ids();
    const x = ids.scalar(name, T.f32);
    return deviceFn(name, [x], T.f32, [{ kind: "return", value: bin("mul", ref(x), c(T.f32, 2)), span }]);
  });
  const ids = new Ids();
  const o = ids.global("out", T.f32);
  const body = names.map((name, k): Stmt => store(o, [i32(k)], { kind: "call", type: T.f32, callee: name, args: [load(o, i32(k))], span }));
  return moduleOf([kernelFn("k", [o], body)], functions);
}

/** A file name that tries to end the header comment, the `#line` string and the line, with non-ASCII. */
export const WEIRD_FILE = 'dir/we"ird\\na\nme*/ ??/ \u00e9.gk';

/** A one-kernel module from the weird file, and the sources its spans point into. */
export function weirdFileModule(): { module: Module; sources: SourceLookup } {
  const ids = new Ids();
  const out = ids.global("out", T.i32);
  const at = { ...span, file: WEIRD_FILE };
  const kernel = { ...kernelFn("k", [out], [{ ...store(out, [i32(0)], i32(1)), span: { ...at, start: 20 } }]), file: WEIRD_FILE, span: at };
  const text = makeSourceFile(WEIRD_FILE, "device_kernel k() {\n  out[0] = 1;\n}\n");
  return { module: moduleOf([kernel], [], WEIRD_FILE), sources: { get: (p) => (p === WEIRD_FILE ? text : undefined) } };
}
