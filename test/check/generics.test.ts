/** Generic definitions, their instances and their diagnostics (src/check/generics.ts, genericArgs.ts). */
import { describe, expect, it } from "vitest";
import { frontEnd } from "../../src/pipeline.js";
import { memoryHost } from "../../src/load/program.js";
import { printModule } from "../../src/ir/print.js";
import { checkSource, diagnosticLines, expectDiagnostics, expectError, irOf } from "../helpers.js";

const SQ = "device_fn sq<T: f32 | f64 | i32>(x: T): T { return x * x; }\n";

describe("checking at the definition", () => {
  it("checks the body for every type a parameter admits, naming the one that fails", () => {
    expectDiagnostics("device_fn low<T: i32 | f32>(x: T): T {\n  return x & 255;\n}\n", [
      "GK3003 2:12 in low<f32>: '&' needs integers or bool, but its operands are f32",
    ]);
  });

  it("reports a T passed where a concrete type is required, though no instance is made", () => {
    expectError(
      "device_fn half(x: f32): f32 { return x * 0.5; }\ndevice_fn f<T: f32 | f64>(x: T): f32 {\n  return half(x);\n}\n",
      "GK3001 3:15 in f<f64>: parameter 'x' of half() is f32, but 'x' is f64",
    );
  });

  it("reports an untyped constant that does not fit every admitted type", () => {
    expectError("device_fn f<T: f32 | i32>(x: T): T {\n  return x + 0.5;\n}\n", "GK3007 2:14 in f<i32>: the float constant 0.5");
  });

  it("reports an error every combination has without naming one", () => {
    expectError("device_fn f<T: f32 | f64>(x: T): T {\n  return y;\n}\n", "GK2001 2:10 unknown name 'y'");
  });

  it("names a note at the type parameter and the combination", () => {
    const r = checkSource("device_fn low<T: i32 | f32>(x: T): T { return x & 255; }\n");
    expect(r.diagnostics[0]!.notes.map((n) => n.message)).toEqual(["here T = f32: a generic body must be valid for every type its parameters admit (T: i32 | f32)"]);
  });

  it("lets constant parameters size arrays, bound loops and label cases, their values unknown until an instance", () => {
    irOf(`device_fn total<T: numeric, N: i32>(s: shared T[N]): T {
  let acc: T = 0;
  let local: T[N];
  for (let i = 0; i < N; i++) { local[i] = s[i]; acc += local[i]; }
  switch (threadIdx.x) { case N: acc += 1; break; default: break; }
  return acc;
}
`);
  });

  it("refuses a constant parameter used as a type, assigned, or a type parameter used as a value", () => {
    expectError("device_fn f<N: i32>(x: N): i32 { return 0; }\n", "GK2003 1:24 'N' is a constant parameter, not a type");
    expectError("device_fn f<N: i32>(x: i32): i32 {\n  N = 2;\n  return x;\n}\n", "GK2006 2:3 cannot assign to 'N': it is a constant parameter");
    expectError("device_fn f<T: f32 | f64>(x: T): T {\n  return T;\n}\n", "GK2008 2:10 'T' is a type parameter (here f32), not a value");
  });

  it("refuses a generic parameter named like a value parameter, or twice", () => {
    expectError("device_fn f<T: f32 | f64>(T: f32): f32 { return T; }\n", "GK2002 1:27 parameter 'T' has the name of a generic parameter of 'f'");
    expectError("device_fn f<T: f32 | f64, T: i32>(x: f32): f32 { return x; }\n", "GK2002 1:27 generic parameter 'T' is declared twice");
  });

  it("refuses constraints that are not types, and constant parameters of a float type", () => {
    expectError("device_fn f<T: f32 | real>(x: T): T { return x; }\n", "GK2003 1:22 unknown type 'real' in the constraint of 'T'");
    expectError("device_fn f<K: f64>(x: f64): f64 { return x; }\n", "GK2020 1:13 'K: f64' declares a constant parameter");
  });

  it("refuses definitions with too many combinations of types to check", () => {
    expectError("device_fn f<A: numeric, B: numeric, C: numeric, D: numeric>(a: A): A { return a; }\n", "GK2020 1:13 these generic parameters admit 20736 combinations of types (12 for A × 12 for B × 12 for C × 12 for D)");
  });

  it("accepts the classes float, int and numeric", () => {
    const ir = irOf("device_fn f<T: float, U: int>(x: T, y: U): T { return x + T(y); }\ndevice_kernel k(o: global<f64>) { o[0] = f64(f(f32(2), u64(3))) + f(f64(1), i32(2)); }\n");
    expect(ir.functions.map((f) => f.name)).toEqual(["f<f32, u64>", "f<f64, i32>"]);
  });
});

describe("instances", () => {
  it("are made where used, once per distinct arguments, and named by them", () => {
    const ir = irOf(`${SQ}device_kernel k(a: f32, b: f64, out: global<f64>) {
  out[0] = f64(sq(a) + sq<f32>(a)) + sq(b) + f64(sq(3));
}
`.replace("f64(sq(3))", "f64(sq(i32(3)))"));
    expect(ir.functions.map((f) => f.name)).toEqual(["sq<f32>", "sq<f64>", "sq<i32>"]);
    expect(ir.functions[0]!.instance).toEqual({ generic: "sq", args: [{ kind: "type", type: expect.objectContaining({ name: "f32" }) }] });
  });

  it("infer T from global arrays and N from shared arrays' sizes", () => {
    const ir = irOf(`device_fn first<T: numeric>(a: readonly global<T>): T { return a[0]; }
device_fn last<T: numeric, N: i32>(s: shared T[N]): T { return s[N - 1]; }
device_kernel k(x: readonly global<u32>, out: global<u32>) {
  shared t: u32[64];
  t[threadIdx.x] = first(x);
  barrier();
  out[0] = last(t);
}
`);
    expect(ir.functions.map((f) => f.name)).toEqual(["first<u32>", "last<u32, 64>"]);
    expect(printModule(ir)).toContain("return s[63:i32];");
  });

  it("give untyped constants the inferred type", () => {
    expect(printModule(irOf(`${SQ}device_kernel k(a: f64, out: global<f64>) { out[0] = sq(a) + sq(a); }\n`))).toContain("fn sq<f64>");
    irOf("device_fn add<T: f32 | f64>(x: T, y: T): T { return x + y; }\ndevice_kernel k(a: f64, out: global<f64>) { out[0] = add(1.5, a) + add(a, 2); }\n");
  });

  it("report arguments that fix a parameter twice, or not at all", () => {
    expectError(
      "device_fn add<T: f32 | f64>(x: T, y: T): T { return x + y; }\ndevice_kernel k(a: f32, b: f64, out: global<f64>) { out[0] = f64(add(a, b)); }\n",
      "GK3032 2:73 T of 'add' would be f32 (from 'a') and f64 (from 'b'): convert one of them, or give the generic arguments: add<...>(...)",
    );
    expectError(`${SQ}device_kernel k(out: global<f32>) { out[0] = sq(2.5); }\n`, "GK3032 2:46 cannot infer T of 'sq' from its arguments");
    expectError(
      "device_fn fill<T: i32 | f32, N: i32>(x: T): T { return x; }\ndevice_kernel k(out: global<f32>) { out[0] = fill(f32(1)); }\n",
      "GK3032 2:46 cannot infer N of 'fill' from its arguments",
    );
  });

  it("report a type a parameter does not admit, inferred or given", () => {
    expectError(`${SQ}device_kernel k(a: u32, out: global<u32>) { out[0] = sq(a); }\n`, "GK3031 2:57 'sq' takes T: f32 | f64 | i32, but 'a' is u32");
    expectError(`${SQ}device_kernel k(out: global<u32>) { out[0] = sq<u32>(2); }\n`, "GK3031 2:49 T of 'sq' is one of f32, f64, i32, not u32");
  });

  it("report generic arguments of the wrong number or kind", () => {
    expectError(`${SQ}device_kernel k(out: global<f32>) { out[0] = sq<f32, f32>(2); }\n`, "GK3030 2:48 'sq' takes 1 generic argument (sq<T: f32 | f64 | i32>), but 2 were given");
    expectError("device_fn r<N: i32>(): i32 { return N; }\ndevice_kernel k(out: global<i32>) { out[0] = r<f32>(); }\n", "GK3031 2:48 N of 'r' is a constant parameter (N: i32): give a constant, not the type f32");
    expectError(`${SQ}device_kernel k(out: global<f32>) { out[0] = sq<1>(2); }\n`, "GK3031 2:49 T of 'sq' is a type parameter");
    expectError("device_fn r<N: i32>(): i32 { return N; }\ndevice_kernel k(n: i32, out: global<i32>) { out[0] = r<(n)>(); }\n", "GK3014 2:56 N of 'r' must be a constant expression");
    expectError("device_fn r<N: u32>(): u32 { return N; }\ndevice_kernel k(out: global<u32>) { out[0] = r<(-1)>(); }\n", "GK3006 2:48 the constant -1 does not fit in u32");
  });

  it("refuse <...> on what is not generic, with a hint where a comparison was likely meant", () => {
    expectError("device_fn f(x: i32): i32 { return x; }\ndevice_kernel k(out: global<i32>) { out[0] = f<i32>(1); }\n", "GK3030 2:47 'f' is not a generic function: call it without <...>");
    expectError(
      "device_kernel k(a: i32, b: i32, c: i32, out: global<bool>) { out[0] = a < b > (c); }\n",
      "GK3030 1:73 'a' is not a generic function: call it without <...>; if you meant comparisons, write them in parentheses",
    );
  });

  it("are checked again with the constants' values, errors naming the instance and where it was made", () => {
    const src = `device_fn get<N: i32>(): i32 {
  let a: i32[N] = [1, 2, 3];
  return a[0];
}
device_kernel k(out: global<i32>) { out[0] = get<3>() + get<4>(); }
`;
    const r = checkSource(src);
    expect(diagnosticLines(r)).toEqual(["GK3004 2:19 in get<4>: 'a' has 4 elements but the initializer has 3"]);
    expect(r.diagnostics[0]!.notes[0]!.message).toBe("get<4> is used here");
  });

  it("come from generic code too, calling other generic functions", () => {
    const ir = irOf(`${SQ}device_fn sumsq<T: f32 | f64>(a: T, b: T): T { return sq(a) + sq<T>(b); }
device_kernel k(a: f64, out: global<f64>) { out[0] = sumsq(a, a); }
`);
    expect(ir.functions.map((f) => f.name)).toEqual(["sq<f64>", "sumsq<f64>"]);
  });

  it("of a definition with errors are not made, and its uses stay quiet", () => {
    expectError(
      "device_fn h(x: f32): f32 { return sq(x); }\ndevice_fn g(x: f32): f32 { return sq(x) + sq(x); }\ndevice_fn sq<T: f32 | f64>(x: T): T { return y; }\ndevice_kernel k(out: global<f32>) { out[0] = g(1) + h(2); }\n",
      "GK2001 3:46 unknown name 'y'",
    );
  });

  it("report recursion once, among definitions, and never make instances without end", () => {
    expectError(
      "device_fn f<N: i32>(x: i32): i32 {\n  if (x > 0) { return f<(N + 1)>(x - 1); }\n  return N;\n}\ndevice_kernel k(out: global<i32>) { out[0] = f<0>(3); }\n",
      "GK4002 2:23 recursion: 'f' calls 'f'",
    );
    expectError("device_fn f<T: f32 | f64>(x: T): T { return f(x); }\n", "GK4002 1:45 recursion: 'f' calls 'f'");
  });

  it("are limited in number, so that definitions making ever more instances of each other end", () => {
    const fns = Array.from({ length: 15 }, (_, i) =>
      i === 14 ? "device_fn f14<N: i32>(): i32 { return N; }" : `device_fn f${i}<N: i32>(): i32 { return f${i + 1}<(2 * N)>() + f${i + 1}<(2 * N + 1)>(); }`,
    );
    expectError(`${fns.join("\n")}\ndevice_kernel k(out: global<i32>) { out[0] = f0<1>(); }\n`, "GK2020 13:56 the program makes more than 10000 instances of generic definitions");
  });

  it("of generic kernels are made by launch statements and named by them", () => {
    const ir = irOf(`device_kernel fill<T: i32 | f32, V: i32>(out: global<T>) { out[globalId.x] = T(V); }
launch fill<f32, 7>(out = zeros(4)) grid(1) block(4);
launch fill<i32, -1>(out = zeros(2)) grid(1) block(2);
`);
    expect(ir.kernels.map((k) => k.name)).toEqual(["fill<f32, 7>", "fill<i32, -1>"]);
    expect(ir.launches.map((l) => l.kernel)).toEqual(["fill<f32, 7>", "fill<i32, -1>"]);
    expect(ir.generics).toEqual([expect.objectContaining({ name: "fill", irName: "fill", params: [expect.objectContaining({ kind: "typeParam", name: "T" }), expect.objectContaining({ kind: "constParam", name: "V" })] })]);
  });

  it("report launches that do not name an instance, or name one of what is not a generic kernel", () => {
    expectError("device_kernel g<T: i32 | f32>(out: global<T>) {}\nlaunch g(out = zeros(1)) grid(1) block(1);\n", "GK3030 2:8 'g' is generic (g<T: i32 | f32>): launch one of its instances, as in 'launch g<i32>(...)'");
    expectError("device_kernel g(out: global<i32>) {}\nlaunch g<i32>(out = zeros(1)) grid(1) block(1);\n", "GK3030 2:9 'g' is not generic: launch it without <...>");
    expectError(`${SQ}launch sq<f32>(x = 1) grid(1) block(1);\n`, "GK5001 2:8 'sq' is a device_fn; only a device_kernel can be launched");
    expectError("device_kernel g<T: i32 | f32>(out: global<T>) {}\nlaunch g<f32>(out = [1, 2.5]) grid(1) block(1);\nlaunch g<i32>(out = [1, 2.5]) grid(1) block(1);\n", "GK3007 3:25 the float constant 2.5 is used where i32 is expected");
  });

  it("of generic functions from another file", () => {
    const ir = irOf(`import { sq } from "./lib.gk";\ndevice_fn sq2(x: f32): f32 { return x; }\ndevice_kernel k(a: f32, out: global<f32>) { out[0] = sq(a) + sq2(a); }\n`, { "lib.gk": `export ${SQ}` });
    expect(ir.functions.map((f) => f.name)).toEqual(["sq<f32>", "sq2"]);
  });

  it("can be requested from outside the program by name and values", () => {
    const src = "device_kernel fill<T: i32 | f32, V: i32>(out: global<T>) { out[globalId.x] = T(V); }\n";
    const r = frontEnd("t.gk", { host: memoryHost({ "t.gk": src }), instances: [{ kernel: "fill", args: ["f32", 3] }, { kernel: "fill", args: ["f32", 3n] }] });
    expect(r.ir?.kernels.map((k) => k.name)).toEqual(["fill<f32, 3>"]);
    const bad = frontEnd("t.gk", { host: memoryHost({ "t.gk": src }), instances: [{ kernel: "fill", args: ["f64", 3] }, { kernel: "fil", args: [] }, { kernel: "fill", args: ["i32", 2 ** 40] }] });
    expect(bad.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      "GK3030 cannot make fil<>: there is no generic kernel 'fil'; did you mean 'fill'?",
      "GK3031 cannot make fill<f64, 3>: T is one of i32, f32, not f64",
      "GK3031 cannot make fill<i32, 1099511627776>: V is i32: 1099511627776 is out of its range",
    ]);
  });
});

describe("function parameters", () => {
  const FOLD = `device_fn fold<T: numeric, OP: device_fn(a: T, b: T): T>(v: T): T {
  return OP(v, shflXor(v, 1));
}
device_fn twice<T: numeric, OP: device_fn(a: T, b: T): T>(v: T): T {
  return OP(fold<T, OP>(v), v);
}
device_fn larger(a: f32, b: f32): f32 { return a > b ? a : b; }
device_fn maximum<T: numeric>(a: T, b: T): T { return a > b ? a : b; }
`;

  it("bind a device_fn of the declared signature; the instance calls it, and passes it on", () => {
    const ir = irOf(`${FOLD}device_kernel k(x: global<f32>, y: global<i32>) {
  x[0] = twice<f32, larger>(x[0]);
  y[0] = fold<i32, maximum>(y[0]);
}
`);
    expect(ir.functions.map((f) => f.name)).toEqual(["larger", "fold<f32, larger>", "twice<f32, larger>", "maximum<i32>", "fold<i32, maximum<i32>>"]);
    expect(ir.functions[2]!.instance).toEqual({ generic: "twice", args: [{ kind: "type", type: expect.objectContaining({ name: "f32" }) }, { kind: "fn", name: "larger" }] });
    const printedIr = printModule(ir);
    expect(printedIr).toContain("larger(fold<f32, larger>(v), v)");
    expect(printedIr).toContain("maximum<i32>(v, ");
  });

  it("refuse a function of another signature, naming both", () => {
    expectError(`${FOLD}device_kernel k(x: global<f64>) {\n  x[0] = fold<f64, larger>(x[0]);\n}\n`, "GK3031 10:20 OP of 'fold' is a device_fn(a: f64, b: f64): f64, but 'larger' is a device_fn(a: f32, b: f32): f32");
    expectError(`${FOLD}device_fn narrow<T: f32 | f64>(a: T, b: T): T { return a; }\ndevice_kernel k(x: global<i32>) {\n  x[0] = fold<i32, narrow>(x[0]);\n}\n`, "GK3031 11:20 OP of 'fold' is a device_fn(a: i32, b: i32): i32, and the generic device_fn narrow<T: f32 | f64> has no instance of that signature: it gives T no type 'narrow' admits");
  });

  it("refuse what is not a device_fn, and are never inferred", () => {
    expectError(`${FOLD}device_kernel k(x: global<f32>) {\n  x[0] = fold<f32, 3>(x[0]);\n}\n`, "GK3031 10:20 OP of 'fold' is a function parameter (OP: device_fn(a: T, b: T): T): give a device_fn by its name, not '3'");
    expectError(`${FOLD}device_kernel k(x: global<f32>) {\n  x[0] = fold<f32, k>(x[0]);\n}\n`, "GK3031 10:20 OP of 'fold' is a function parameter (OP: device_fn(a: T, b: T): T): 'k' is not a device_fn");
    expectError(`${FOLD}device_kernel k(x: global<f32>) {\n  x[0] = fold(x[0]);\n}\n`, "GK3032 10:10 cannot infer OP of 'fold' from its arguments (a function parameter is never inferred)");
  });

  it("are called, not used as values, types or assigned; and kernels take none", () => {
    expectError("device_fn f<OP: device_fn(a: f32): f32>(x: f32): f32 {\n  return OP;\n}\n", "GK2008 2:10 'OP' is a function parameter, not a value: call it, OP(a)");
    expectError("device_fn f<OP: device_fn(a: f32): f32>(x: OP): f32 {\n  return x;\n}\n", "GK2003 1:44 'OP' is a function parameter, not a type");
    expectError("device_fn f<OP: device_fn(a: f32): f32>(x: f32): f32 {\n  OP = x;\n  return OP(x);\n}\n", "GK2006 2:3 cannot assign to 'OP': it is a function parameter");
    expectError("device_fn f<OP: device_fn(a: f32): f32>(x: f32): f32 {\n  return OP(x, x);\n}\n", "GK3004 2:10 OP() takes 1 argument (OP(a: f32))");
    expectError("device_kernel k<OP: device_fn(a: f32): f32>(x: global<f32>) {\n  x[0] = 1.0;\n}\n", "GK2020 1:17 'OP' is a function parameter, which only a device_fn takes");
  });

  it("report a signature that does not resolve once, with the definition", () => {
    expectError("device_fn f<T: f32 | i32, OP: device_fn(a: Q, b: T): T>(x: T): T {\n  return OP(x, x);\n}\n", "GK2003 1:44 unknown type 'Q'");
  });

  it("count in recursion like any call", () => {
    expectError("device_fn apply<OP: device_fn(a: f32): f32>(a: f32): f32 {\n  return OP(a);\n}\ndevice_fn g(a: f32): f32 {\n  return apply<g>(a);\n}\ndevice_kernel k(x: global<f32>) {\n  x[0] = g(x[0]);\n}\n", "GK4002");
  });
});
