import { describe, expect, it } from "vitest";
import { checkSource, diagnosticLines, expectDiagnostics, expectError, irOf, kernel, printed } from "../helpers.js";
import { typeToString } from "../../src/ir/types.js";

describe("untyped constants take their type from context", () => {
  it("defaults integer literals to i32 and float literals to f32", () => {
    expect(printed(kernel("  let a = 5;\n  let c = 0.5;"), "check")).toContain("let a: i32 = 5:i32;\n  let c: f32 = 0.5:f32;");
  });
  it("gives a literal the other operand's type", () => {
    const ir = printed(kernel("  let a = u * 2;\n  let c = 2 * d;\n  let e = l + 1;"), "check");
    expect(ir).toContain("let a: u32 = u *.u32 2:u32;");
    expect(ir).toContain("let c: f64 = 2:f64 *.f64 d;");
    expect(ir).toContain("let e: i64 = l +.i64 1:i64;");
  });
  it("computes constant expressions exactly before typing them", () => {
    expect(printed("const BIG = 1 << 40;\nconst HALF = BIG / 2;\n" + kernel("  let a = l + HALF;"), "check")).toContain("l +.i64 549755813888:i64");
  });
  it("lets an integer literal be a float but never a float literal an integer", () => {
    expect(printed(kernel("  let a: f32 = 3;"), "check")).toContain("let a: f32 = 3:f32;");
    expectError(kernel("  let a: i32 = 2.5;"), "GK3007 3:16 the float constant 2.5 is used where i32 is expected");
  });
  it("checks ranges", () => {
    expectError(kernel("  let a: u32 = -1;"), "GK3006 3:16 the constant -1 does not fit in u32");
    expectError(kernel("  let a = 3000000000;"), "GK3006 3:11 the constant 3000000000 does not fit in i32");
    expectError(kernel("  let a = n + 3000000000;"), "GK3006 3:15 the constant 3000000000 does not fit in i32");
  });
  it("wraps explicitly converted constants", () => {
    const ir = printed(kernel("  let a = u32(-1);\n  let c = i32(2.9);\n  let e = i32(-2.9);\n  let g = u32(1e20);"));
    expect(ir).toContain("let a: u32 = 4294967295:u32;");
    expect(ir).toContain("let c: i32 = 2:i32;");
    expect(ir).toContain("let e: i32 = -2:i32;");
    expect(ir).toContain("let g: u32 = 4294967295:u32;");
  });
  it("keeps local untyped consts untyped", () => {
    expect(printed(kernel("  const K = 4;\n  let a = u + K;\n  let c = d * K;"), "check")).toContain("let c: f64 = d *.f64 4:f64;");
  });
  it("has Infinity and NaN as untyped float constants", () => {
    const ir = printed(kernel("  let a = -Infinity;\n  let c: f64 = NaN;\n  let e = d + Infinity;\n  let g = Infinity - Infinity;\n  let h = NaN == NaN;\n  let i = 1.0 != NaN;"));
    expect(ir).toContain("let a: f32 = -Infinity:f32;");
    expect(ir).toContain("let c: f64 = NaN:f64;");
    expect(ir).toContain("let e: f64 = d +.f64 Infinity:f64;");
    expect(ir).toContain("let g: f32 = NaN:f32;");
    expect(ir).toContain("let h: bool = false:bool;");
    expect(ir).toContain("let i: bool = true:bool;");
    expectError(kernel("  let a = i32(1) + Infinity;"), "GK3007 3:20 the float constant Infinity is used where i32 is expected");
    expectError(kernel("  let a = 1e308 * 10.0;"), "GK3006 3:17 constant expression overflows f64");
  });
  it("reports division by zero in constant expressions once", () => {
    expectError(kernel("  let a = n + 1 / 0;"), "GK3016 3:17 division by zero in a constant expression");
  });
});

describe("no implicit conversions", () => {
  it("rejects mixed operand types with a fix", () => {
    expectError(kernel("  let a = f + n;"), "GK3001 3:11 mixed types in '+': 'f' is f32 and 'n' is i32; gk never converts implicitly: write i32(f) or f32(n)");
    expectError(kernel("  let a = n + u;"), "GK3001 3:11 mixed types in '+'");
    expectError(kernel("  let a: f64 = f;"), "GK3001 3:16 'a' is f64, but 'f' is f32");
  });
  it("requires bool conditions", () => {
    expectError(kernel("  if (n) { }"), "GK3002 3:7 an if condition must be bool, but 'n' is i32: write 'n != 0'");
    expectError(kernel("  while (f) { }"), "GK3002 3:10 a while condition must be bool");
    expectError(kernel("  let a = n && b;"), "GK3002 3:11 the left operand of '&&' must be bool");
  });
  it("allows casts between every pair of scalar types", () => {
    const types = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"];
    const vars: Record<string, string> = { bool: "b", i32: "n", u32: "u", i64: "l", u64: "u64(l)", f32: "f", f64: "d" };
    const body = types.flatMap((from) => types.map((to) => `  let c_${from}_${to} = ${to}(${vars[from]});`)).join("\n");
    irOf(kernel(body));
  });
});

describe("operators", () => {
  it("lowers >>> on signed integers through the unsigned type", () => {
    expect(printed(kernel("  let a = n >>> 3;"), "check")).toContain("let a: i32 = i32(u32(n) >>.u32 u32(3:i32));");
  });
  it("converts a shift count to the shifted type", () => {
    expect(printed(kernel("  let a = l << n;"), "check")).toContain("let a: i64 = l <<.i64 i64(n);");
    expectError(kernel("  let a = n << 32;"), "GK3006 3:16 the shift count 32 is out of range for i32 (0 to 31)");
  });
  it("rejects operators on the wrong types", () => {
    expectError(kernel("  let a = f & f;"), "GK3003 3:13 '&' needs integers or bool, but its operands are f32");
    expectError(kernel("  let a = b + b;"), "GK3003 3:13 '+' needs numbers, but its operands are bool");
    expectError(kernel("  let a = !n;"), "GK3003 3:11 '!' needs bool, but 'n' is i32: write 'n == 0'");
    expectError(kernel("  let a = b < b;"), "GK3003 3:13 '<' does not order bool values");
  });
  it("treats === as == and compares untyped constants exactly", () => {
    expect(printed(kernel("  let a = n === 3;\n  let c = 3000000000 > 1;"), "check")).toContain("let c: bool = true:bool;");
  });
});

describe("assignments", () => {
  it("lowers compound assignment and increments", () => {
    const ir = printed(kernel("  let a = 0;\n  a += n;\n  a++;\n  out[n] *= 2.0;\n  a <<= 2;"), "check");
    expect(ir).toContain("a = a +.i32 n;");
    expect(ir).toContain("a = a +.i32 1:i32;");
    expect(ir).toContain("out[n] = out[n] *.f32 2:f32;");
    expect(ir).toContain("a = a <<.i32 2:i32;");
  });
  it("evaluates an index with effects once", () => {
    const src = "device_fn pick(i: i32): i32 { return i; }\n" + kernel("  out[pick(n)] += 1.0;");
    expect(printed(src, "check")).toContain("const out_i0: i32 = pick(n);\n    out[out_i0] = out[out_i0] +.f32 1:f32;");
  });
  it("rejects writes to constants and readonly arrays", () => {
    expectError(kernel("  const c = n;\n  c = 2;"), "GK2006 4:3 cannot assign to 'c': it is a const");
    expectError(kernel("  x[0] = 1.0;"), "GK2007 3:3 'x' is readonly");
    expectError(kernel("  threadIdx.x = 1;"), "GK1012 3:3 cannot assign here: 'threadIdx.x' is read-only");
    expectError(kernel("  out = x;"), "GK3013 3:3 cannot assign to the whole array 'out'");
  });
});

describe("declaration lists and for headers", () => {
  it("declares several names in one let or const, left to right", () => {
    const ir = printed(kernel("  let p = 1, q: f32, r = p + 2;\n  const K = 3, M = K * 2;\n  iout[0] = p + r + M;"), "check");
    expect(ir).toContain("let p: i32 = 1:i32;\n  let q: f32 = 0:f32;\n  let r: i32 = p +.i32 2:i32;");
    expect(ir).toContain("iout[0:i32] = (p +.i32 r) +.i32 6:i32;");
  });
  it("takes lists in a for header's initializer and step", () => {
    const ir = printed(kernel("  let j = 0;\n  for (let i = 0, k = n; i < k; i++, k--) { iout[i] = k; }\n  for (j = 0, n = 1; j < n; j += 2, n++) { }"), "check");
    expect(ir).toContain("init:\n      let i: i32 = 0:i32;\n      let k: i32 = n;");
    expect(ir).toContain("step:\n      {\n        i = i +.i32 1:i32;\n        k = k -.i32 1:i32;\n      }");
    expect(ir).toContain("init:\n      {\n        j = 0:i32;\n        n = 1:i32;\n      }");
  });
});

describe("switch", () => {
  it("lowers to an if/else-if chain over the value, evaluated once; labels without statements share a body", () => {
    const ir = printed(kernel("  switch (n + 1) {\n    case 0: iout[0] = 1; break;\n    case 1:\n    case 2: { iout[0] = 2; break; }\n    default: iout[0] = 3;\n  }"), "check");
    expect(ir).toContain("const switch_value: i32 = n +.i32 1:i32;");
    expect(ir).toContain("if (switch_value ==.i32 0:i32) {");
    expect(ir).toContain("if ((switch_value ==.i32 1:i32) || (switch_value ==.i32 2:i32)) {");
    expect(ir).toContain("iout[0:i32] = 3:i32;");
  });
  it("lets a case leave by return or continue, and keeps 'switch', 'case' and 'default' ordinary names elsewhere", () => {
    irOf(kernel("  for (let j = 0; j < n; j++) {\n    switch (j) { case 0: continue; case 1: return; default: iout[j] = j; }\n  }\n  let switch = 1;\n  let case = switch;\n  let default = case;"));
  });
  it("reports fall-through, misplaced break, repeated and non-constant labels, and non-integer values", () => {
    expectError(kernel("  switch (n) {\n    case 0: iout[0] = 1;\n    case 1: iout[0] = 2; break;\n  }"), "GK4012 4:13 this case runs on into the next one: end it with 'break;'");
    expectError(kernel("  switch (n) {\n    case 0: if (n > 1) { break; } iout[0] = 1; break;\n  }"), "GK4012 4:26 'break' leaves a case of a switch only as the case's last statement");
    expectError(kernel("  switch (n) { case 1: break; case 1: break; }"), "GK2002 3:36 case 1 is already a label of this switch");
    expectError(kernel("  switch (n) { case u: break; }"), "GK3001 3:21 a case label is i32, but 'u' is u32");
    expectError(kernel("  switch (n) { case n: break; }"), "GK3014 3:21 a case label must be a constant expression");
    expectError(kernel("  switch (f) { case 1: break; }"), "GK3003 3:11 switch takes an integer, but 'f' is f32");
  });
});

describe("names and scopes", () => {
  it("reports unknown names with a suggestion", () => {
    expectError(kernel("  let count = 1;\n  let a = cuont + 1;"), "GK2001 4:11 unknown name 'cuont'; did you mean 'count'?");
  });
  it("suggests i32 first for TypeScript's number (what JavaScript counts and indexes with)", () => {
    expectError("device_kernel k(n: number, out: global<f32>) {}\n", "GK2003 1:20 unknown type 'number'; did you mean i32 (a count or an index), f32 or f64?");
  });
  it("reports redeclaration in one scope and allows shadowing in an inner one", () => {
    expectError(kernel("  let a = 1;\n  let a = 2;"), "GK2002 4:7 'a' is already declared in this scope");
    irOf(kernel("  let a = 1;\n  { let a = 2.0; out[0] = a; }"));
  });
  it("reserves type and thread-index names", () => {
    expectError(kernel("  let f32 = 1;"), "GK2009 3:7 'f32' is a reserved name");
    expectError(kernel("  let a = threadIdx;"), "GK2008 3:11 'threadIdx' is not a value by itself: use threadIdx.x");
  });
  it("lets a math builtin's name be shadowed by a variable", () => {
    irOf(kernel("  let max = 3;\n  iout[0] = max;"));
  });
  it("makes a module-level constant array a read-only copy at the start of each function that reads it", () => {
    const src = "const W: f32[2][2] = [[1, 2], [3.5, 1 << 3]];\ndevice_fn w(i: i32): f32 { return W[i][0]; }\n" + kernel("  out[0] = W[1][1] + w(n);");
    const ir = printed(src, "check");
    expect(ir).toContain("fn w(i: i32): f32 {\n  let W: f32[2][2] = [1:f32, 2:f32, 3.5:f32, 8:f32];");
    expect(ir.match(/let W: f32\[2\]\[2\]/g)).toHaveLength(2);
    expectError("const W: f32[3] = [1.0, 2.0, 3.0];\n" + kernel("  W[0] = 2.0;"), "GK2007 4:3 'W' is a module-level constant array; it cannot be written");
    expectError("const W: f32[3] = [1.0, 2.0];\n" + kernel("  out[0] = W[0];"), "GK3004 1:19 'W' has 3 elements but the initializer has 2");
    expectError("const W: i32[2] = [1, globalId.x];\n" + kernel("  iout[0] = W[0];"), "GK3014 1:23");
    expectError("const W: f32[3] = [1.0, 2.0, 3.0];\n" + kernel("  out[0] = W;"), "GK3013 4:12 'W' is a constant array (f32[3]); arrays are not values");
  });
  it("resolves module constants in any order and catches cycles", () => {
    irOf("const A = B + 1;\nconst B = 2;\n" + kernel("  iout[0] = A;"));
    expectDiagnostics("const A = B + 1;\nconst B = A;\n" + kernel("  iout[0] = A;"), ["GK3014 1:7 the constant 'A' is defined in terms of itself"]);
  });
});

describe("arrays", () => {
  it("takes a local array's type from a literal of constants: f32 with a float among them, else i32", () => {
    const ir = printed(kernel("  let w = [0.25, 0.5, 1];\n  let g = [[1, 2], [3, 4]];\n  out[0] = w[0] + f32(g[1][1]);"), "check");
    expect(ir).toContain("let w: f32[3] = [0.25:f32, 0.5:f32, 1:f32];");
    expect(ir).toContain("let g: i32[2][2] = [1:i32, 2:i32, 3:i32, 4:i32];");
    expectError(kernel("  let a = [1, n];"), "GK3012 3:11 a local array needs its type here: write 'let a: f32[2] = [...];'");
    expectError(kernel("  let a = [[1], [2, 3]];"), "GK3012 3:11 a local array needs its type here");
  });
  it("checks dimensions and constant indices", () => {
    expectError(kernel("  shared t: f32[4][8];\n  out[0] = t[1];"), "GK3008 4:12 't' (shared f32[4][8]) has 2 dimensions but is indexed with 1: write t[i][j]");
    expectError(kernel("  shared t: f32[4][8];\n  out[0] = t[1][8];"), "GK3008 4:17 index 8 is out of bounds for 't', whose dimension 2 has size 8");
    expectError(kernel("  out[f] = 1.0;"), "GK3009 3:7 an index must be an integer, but 'f' is f32: write i32(f)");
  });
  it("declares local arrays, zeroed or initialized row-major", () => {
    const ir = printed(kernel("  let a: f32[2][2] = [[1, 2], [3, 4]];\n  let c: i32[3];\n  out[0] = a[1][0] + f32(c[2]);"), "check");
    expect(ir).toContain("let a: f32[2][2] = [1:f32, 2:f32, 3:f32, 4:f32];");
    expect(ir).toContain("let c: i32[3];");
  });
  it("requires let and a matching initializer for local arrays", () => {
    expectError(kernel("  const a: f32[2] = [1, 2];"), "GK4010 3:3 local arrays are declared with let");
    expectError(kernel("  let a: f32[2] = [1, 2, 3];"), "GK3004 3:19 'a' has 2 elements but the initializer has 3");
    expectError(kernel("  let a: f32[n];"), "GK3014 3:14 an array size must be a constant");
  });
  it("keeps shared memory in a kernel's body (dynamic arrays at its top level) and within the limit", () => {
    expectError(kernel("  if (b) { shared t: f32[]; }"), "GK4001 3:12 a dynamic shared array is declared at the top level of a device_kernel's body (each launch gives its length by its name), not inside a nested block");
    expectError("device_fn g(): void { shared t: f32[4]; }\n", "GK4001 1:23 'shared' memory is declared in a device_kernel's body, not in a device_fn");
    expectError(kernel("  shared t: f32[8192][8];"), "GK4008 3:3 'k' now declares 262144 bytes of shared memory; a block may use at most 232448 bytes");
    expect(diagnosticLines(checkSource(kernel("  shared t: f32[8192][2];\n  t[0][0] = 1.0;\n  out[0] = t[0][0];")))).toEqual([]);
  });
  it("takes a fixed-size shared array declared in a nested block, a loop body too: block-wide memory, its name scoped to the block", () => {
    const src = "device_kernel k(out: global<f32>) {\n  for (let i = 0; i < 2; i++) {\n    shared t: f32[4];\n    t[threadIdx.x] = 1.0;\n  }\n  if (threadIdx.x == 0) {\n    shared t: i32[1];\n    t[0] = 2;\n    out[0] = f32(t[0]);\n  }\n}\n";
    expect(diagnosticLines(checkSource(src))).toEqual([]);
    expect(irOf(src).kernels[0]!.shared.map((a) => `${a.name}: ${typeToString(a.type)}`)).toEqual(["t: shared f32[4]", "t: shared i32[1]"]);
    expectError("device_kernel k(out: global<f32>) {\n  for (let i = 0; i < 2; i++) { shared t: f32[4]; }\n  out[0] = t[0];\n}\n", "GK2001 3:12");
  });
  it("reads a const local of a constant expression of constant parameters as an array size (const M = N * 2; f32[M])", () => {
    const src = "device_kernel k<N: i32>(out: global<f32>) {\n  const M = N * 2;\n  const K: i32 = M + 1;\n  let a: f32[K];\n  shared s: f32[M];\n  s[0] = 1.0;\n  a[M] = s[0];\n  out[0] = a[K - 1];\n}\nlaunch k<4>(out = zeros(1)) grid(1) block(1);\n";
    expect(diagnosticLines(checkSource(src))).toEqual([]);
    expectError(kernel("  let m = 2;\n  const M = m * 2;\n  let a: f32[M];"), "GK3014 5:14 an array size must be a constant, but 'M' is computed at run time");
  });
  it("uses scalar shared variables by name", () => {
    const ir = printed(kernel("  shared total: f32;\n  total = 0.0;\n  barrier();\n  atomicAdd(total, 0, f);\n  out[0] = total;"), "check");
    expect(ir).toContain("total[0:i32] = 0:f32;");
    expect(ir).toContain("out[0:i32] = total[0:i32];");
  });
});

describe("builtins", () => {
  it("types math builtins from their typed arguments", () => {
    const ir = printed(kernel("  let a = min(n, 3);\n  let c = sqrt(2.0);\n  let e = max(d, 1);\n  let g = isnan(f);"), "check");
    expect(ir).toContain("let a: i32 = min.i32(n, 3:i32);");
    expect(ir).toContain("let c: f32 = sqrt.f32(2:f32);");
    expect(ir).toContain("let e: f64 = max.f64(d, 1:f64);");
    expect(ir).toContain("let g: bool = isnan.bool(f);");
  });
  it("reports wrong argument counts and types", () => {
    expectError(kernel("  let a = sqrt(n);"), "GK3005 3:16 sqrt() takes f16, bf16, f32 or f64, but 'n' is i32: write sqrt(f32(n))");
    expectError(kernel("  let a = pow(f);"), "GK3004 3:11 pow() takes 2 arguments (pow(x, y)), but 1 was given");
    expectError(kernel("  let a = min(f, d);"), "GK3001 3:18 mixed types in min(): 'f' is f32 but 'd' is f64");
  });
  it("checks atomics: targets, element types, operands", () => {
    irOf(kernel("  let old = atomicAdd(iout, 0, 1);\n  atomicCAS(iout, 1, old, 5);\n  atomicMax(out, n, f);"));
    expectError(kernel("  atomicAdd(x, 0, 1.0);"), "GK2007 3:13 atomicAdd() writes to 'x', which is readonly");
    expectError(kernel("  let a: i32[4];\n  atomicAdd(a, 0, 1);"), "GK3017 4:13 atomicAdd() works on global and shared memory, but 'a' is a local array");
    expectError(kernel("  atomicAdd(iout, 0, 1.0);"), "GK3007 3:22 the float constant 1.0 is used where i32 is expected");
    expectError(kernel("  atomicAdd(iout, 0);"), "GK3004 3:3 atomicAdd() takes 3 arguments: atomicAdd(array, index, value)");
  });
  it("makes barrier() a statement", () => {
    expect(printed(kernel("  barrier();"), "check")).toContain("barrier();");
    expectError(kernel("  let a = barrier();"), "GK3018 3:11 barrier() has no value");
  });
  it("types warp operations: shuffles keep the value's type, lane operands become i32, votes take bool", () => {
    const ir = printed(kernel("  let a = shfl(f, 3);\n  let c = shflDown(l, u);\n  let e: f64 = shflXor(1, 16);\n  let g = ballot(n > 2);\n  let h = anyLane(b) && allLanes(!b);\n  syncWarp();\n  let i = laneId + warpSize;"), "check");
    expect(ir).toContain("let a: f32 = shfl.f32(f, 3:i32);");
    expect(ir).toContain("let c: i64 = shflDown.i64(l, i32(u));");
    expect(ir).toContain("let e: f64 = shflXor.f64(1:f64, 16:i32);");
    expect(ir).toContain("let g: u32 = ballot.u32(n >.i32 2:i32);");
    expect(ir).toContain("syncWarp();");
    expect(ir).toContain("let i: i32 = laneId +.i32 32:i32;");
  });
  it("reports misused warp operations, laneId and warpSize", () => {
    expectError(kernel("  let a = shfl(b, 1);"), "GK3005 3:16 shfl() moves integers and floats, but 'b' is bool");
    expectError(kernel("  let a = shfl(f, 1.5);"), "GK3007 3:19 the float constant 1.5 is used where i32 is expected");
    expectError(kernel("  let a = shflUp(f, d);"), "GK3005 3:21 the delta of shflUp() must be an integer, but 'd' is f64: write i32(d)");
    expectError(kernel("  let a = ballot(n);"), "GK3002 3:18 the argument of ballot() must be bool, but 'n' is i32: write 'n != 0'");
    expectError(kernel("  let a = shflDown(f);"), "GK3004 3:11 shflDown() takes 2 arguments (shflDown(v, delta)), but 1 was given");
    expectError(kernel("  syncWarp(1);"), "GK3004 3:3 syncWarp() takes no arguments, but 1 was given");
    expectError(kernel("  let a = laneId();"), "GK2004 3:11 'laneId' is a value, not a function: write laneId");
    expectError(kernel("  let a = warpSize();"), "GK2004 3:11 'warpSize' is a constant (32), not a function: write warpSize");
    expectError(kernel("  let a = laneId.x;"), "GK2005 3:18 'laneId' is i32, which has no members: members are the fields of structs, the lanes of vectors, and .x .y .z of threadIdx");
    expectError(kernel("  laneId += 1;"), "GK1012 3:3 cannot assign here: 'laneId' is read-only");
    expectError(kernel("  warpSize = 16;"), "GK1012 3:3 cannot assign here: 'warpSize' is read-only");
  });
  it("lets declarations shadow laneId and warpSize, and warpSize size arrays", () => {
    const ir = printed("const W = warpSize / 2;\n" + kernel("  let laneId = n;\n  let s: f32[W];\n  s[0] = f32(laneId);"), "check");
    expect(ir).toContain("s: f32[16]");
    expect(ir).toContain("let laneId: i32 = n;");
  });
  it("names the gk builtin for a CUDA function, intrinsic or C cast", () => {
    expectError(kernel("  let a = sqrtf(f);"), "GK2004 3:11 unknown function 'sqrtf': in gk, write sqrt(...)");
    expectError(kernel("  let a = fabsf(f);"), "GK2004 3:11 unknown function 'fabsf': in gk, write abs(...)");
    expectError(kernel("  __syncthreads();"), "GK2004 3:3 unknown function '__syncthreads': in gk, write barrier()");
    expectError(kernel("  let a = __shfl_xor_sync(0xffffffff, f, 1);"), "GK2004 3:11 unknown function '__shfl_xor_sync': in gk, write shflXor(v, laneMask); gk passes the mask of the warp's threads itself");
    expectError(kernel("  let a = __expf(f);"), "GK2004 3:11 unknown function '__expf': in gk, write fastExp(...)");
    expectError(kernel("  __threadfence();"), "GK2004 3:3 unknown function '__threadfence': in gk, write threadfence(...)");
    expectError(kernel("  let a = float(n);"), "GK2004 3:11 unknown function 'float': in gk, write f32(...); gk writes a conversion as a call of the type");
  });
  it("rejects launch data helpers in kernels", () => {
    expectError(kernel("  let a = zeros(3);"), "GK2004 3:11 zeros() makes launch data; it can only be an argument of a 'launch' statement");
  });
});

describe("functions", () => {
  it("passes scalars and global arrays to device functions", () => {
    const src = "device_fn get(a: readonly global<f32>, i: i32): f32 { return a[i]; }\n" + kernel("  out[0] = get(x, n) + get(out, 1);");
    expect(printed(src, "check")).toContain("out[0:i32] = get(x, n) +.f32 get(out, 1:i32);");
  });
  it("passes a kernel's shared array to a device_fn parameter 'shared T[N]' of the same element type and sizes", () => {
    const fn = "device_fn first(s: shared f32[4][2], i: i32): f32 { s[i][0] += 1.0; return s[i][1]; }\n";
    const ir = printed(fn + kernel("  shared t: f32[4][2];\n  out[0] = first(t, n);"), "check");
    expect(ir).toContain("fn first(s: shared f32[4][2], i: i32): f32 {");
    expect(ir).toContain("out[0:i32] = first(t, n);");
    expectError(fn + kernel("  shared w: f32[8];\n  out[0] = first(w, n);"), "GK3005 5:18 parameter 's' of first() is shared f32[4][2], but 'w' is shared f32[8]; pass a shared array of that element type and those sizes");
    expectError(fn + kernel("  out[0] = first(out, n);"), "GK3005 4:18 parameter 's' of first() is shared f32[4][2], but 'out' is global<f32>");
    expectError("device_fn g(a: global<f32>): f32 { return a[0]; }\n" + kernel("  shared t: f32[4];\n  out[0] = g(t);"), "GK3005 5:14 parameter 'a' of g() is global<f32>, but 't' is shared f32[4]; only global arrays can be passed; to pass shared memory, declare the parameter 'shared f32[4]'");
  });
  it("allows 'shared T[N]' only as a device_fn parameter", () => {
    expectError("device_kernel k2(s: shared f32[4]) { }\n", "GK4007 1:21 a kernel's parameters are scalars and global arrays");
    expectError(kernel("  let a: shared f32[4];"), "GK4007 3:10 'shared' in a type marks a device_fn parameter");
    expectError("device_fn g(s: shared f32) { }\n", "GK1010 1:16 'shared' in a type marks a device_fn parameter that is a shared array, with its sizes");
  });
  it("refuses to pass a readonly array where the callee may write", () => {
    const src = "device_fn put(a: global<f32>): void { a[0] = 1.0; }\n" + kernel("  put(x);");
    expectError(src, "GK2007 4:7 'x' is readonly, but parameter 'a' of put() may write it");
  });
  it("requires a return on every path and matching return values", () => {
    expectError("device_fn f(x: i32): i32 { if (x > 0) { return 1; } }\n", "GK4003 1:11 'f' must return i32 on every path");
    irOf("device_fn f(x: i32): i32 { if (x > 0) { return 1; } else { return 2; } }\n");
    irOf("device_fn f(x: i32): i32 { while (true) { if (x > 0) { return 1; } } }\n");
    expectError("device_fn f(x: i32): i32 { return; }\n", "GK4005 1:28 'f' returns i32: write 'return <value>;'");
    expectError(kernel("  return 1;"), "GK4005 3:10 a device_kernel returns nothing");
  });
  it("forbids recursion, direct and indirect", () => {
    expectError("device_fn fact(x: i32): i32 { return fact(x); }\n" + kernel("  iout[0] = fact(1);"), "GK4002 1:38 recursion: 'fact' calls 'fact'");
  });
  it("reports kernels called like functions", () => {
    expectError(kernel("  k(n, u, f, d, l, b, x, out, iout);"), "GK2004 3:3 'k' is a device_kernel: kernels are launched, not called");
  });
  it("warns about unreachable code and expressions without effect", () => {
    expectDiagnostics(kernel("  return;\n  out[0] = 1.0;"), ["GK4006 4:3 unreachable code"]);
    expectDiagnostics(kernel("  n == 1;"), ["GK4011 3:3 this expression has no effect; did you mean '=' (assignment)?"]);
  });
});

describe("kernel names", () => {
  // A compiled module has each kernel as a member (mod.saxpy(...)): a kernel may not take a
  // name the module object already has, or one JavaScript gives a meaning to.
  const k = (name: string) => `device_kernel ${name}(out: global<i32>) { out[0] = 1; }\n`;
  it("refuses the names of the module's own members, Object.prototype's, then and default (GK2010)", () => {
    for (const name of ["then", "default", "constructor", "__proto__", "close", "kernels", "device", "runLaunches", "toString", "hasOwnProperty", "valueOf"]) {
      expectError(k(name), `GK2010 1:15 a kernel cannot be named '${name}'`);
    }
  });
  it("lets device functions and constants take those names, and kernels any other", () => {
    expectDiagnostics(`device_fn then(x: i32): i32 { return x; }\nconst close = 2;\n${k("thenable")}${k("closeAll")}`, []);
  });
  // A kernel's name is its extern "C" symbol, verbatim: one C++ or the headers claim is refused.
  it("refuses kernel names that cannot be their CUDA symbol, saying why (GK2011)", () => {
    const why: Record<string, string> = {
      free: "the headers nvcc includes declare that name",
      int: "it is a C++ keyword",
      main: "C++ reserves it",
      NULL: "the headers nvcc includes define a macro of that name",
      frexpf: "the headers nvcc includes declare that name",
      sqrtf: "the generated code calls a function of that name",
      fmodf: "the generated code calls a function of that name",
      gk_scale: "names that start with 'gk_' are the generated code's own",
      a__b: "C++ reserves names with a double underscore for its implementation",
      _scale: "C++ reserves names that start with '_' for its implementation",
      cudaScale: "the CUDA headers declare names that start with 'cuda'",
      cuScale: "the CUDA headers declare names that start with 'cu' and a capital letter",
      CUDA_SCALE: "the CUDA headers declare names that start with 'CUDA_'",
      atomicScale: "the CUDA headers declare names that start with 'atomic' and a capital letter",
    };
    for (const [name, reason] of Object.entries(why)) {
      expectError(k(name), `GK2011 1:15 a kernel's name is its CUDA symbol (extern "C"), and '${name}' cannot be one: ${reason}; rename the kernel`);
    }
  });
  it("keeps every other kernel name as its symbol, CUDAkernel2DCT included, and lets device functions take any name", () => {
    expectDiagnostics(`device_fn free(x: i32): i32 { return x; }\n${k("CUDAkernel2DCT")}${k("Cuda")}${k("cu")}${k("CUtile")}${k("makeTile")}`, []);
  });
});

describe("imports", () => {
  const lib = "export const SCALE = 2.0;\nexport device_fn twice(x: f32): f32 { return x * SCALE; }\ndevice_fn helper(): i32 { return 1; }\n";
  it("brings device functions and constants from relative paths", () => {
    const ir = irOf(`import { twice, SCALE } from "./lib.gk";\n` + kernel("  out[0] = twice(f) + SCALE;"), { "lib.gk": lib });
    expect(ir.functions.map((f) => f.name)).toEqual(["twice"]);
  });
  it("reports missing files, missing names and non-relative paths", () => {
    expectError(`import { twice } from "./nope.gk";\n`, "GK6001 1:23 cannot import './nope.gk': 'nope.gk': no such file");
    expectError(`import { thrice } from "./lib.gk";\n`, "GK6002 1:10 'lib.gk' declares no 'thrice'", { "lib.gk": lib });
    expectError(`import { twice } from "lib.gk";\n`, "GK6004 1:23 import paths are relative to the importing file");
  });
  it("keeps the names of two files' functions apart", () => {
    const a = "device_fn helper(): i32 { return 2; }\nexport device_fn useA(): i32 { return helper(); }\n";
    const ir = irOf(`import { useA } from "./a.gk";\ndevice_fn helper(): i32 { return 1; }\n` + kernel("  iout[0] = useA() + helper();"), { "a.gk": a });
    expect(ir.functions.map((f) => f.name).sort()).toEqual(["helper", "helper_1", "useA"]);
  });
});

describe("launch statements", () => {
  const k = "device_kernel k(n: i32, x: readonly global<f32>, out: global<u32>) { }\n";
  it("orders arguments by parameter and keeps data helpers lazy", () => {
    const ir = irOf(k + "launch k(out = zeros(4), x = rand(4, 7), n = 4) grid(1) block(4);");
    expect(ir.launches[0]).toMatchObject({
      kernel: "k", grid: [1, 1, 1], block: [4, 1, 1],
      args: [{ param: "n", value: 4 }, { param: "x", data: { kind: "rand", length: 4, seed: 7, lo: 0, hi: 1 } }, { param: "out", data: { kind: "zeros", length: 4 } }],
    });
  });
  it("reports missing, unknown and duplicate arguments", () => {
    expectDiagnostics(k + "launch k(n = 1, n = 2, y = [1], out = [1]) grid(1) block(1);", [
      "GK5002 2:8 launch of 'k' is missing the argument 'x'",
      "GK5004 2:17 'n' is given twice",
      "GK5003 2:24 'k' has no parameter 'y'",
    ]);
  });
  it("checks values against parameter types", () => {
    expectError(k + "launch k(n = 1.5, x = [1], out = [1]) grid(1) block(1);", "GK3007 2:14 the float constant 1.5 is used where i32 is expected");
    expectError(k + "launch k(n = 1, x = 3, out = [1]) grid(1) block(1);", "GK5005 2:21 'x' is an array of f32: pass an array literal");
    expectError(k + "launch k(n = [1], x = [1], out = [1]) grid(1) block(1);", "GK5005 2:14 'n' is a scalar (i32)");
    expectError(k + "launch k(n = 1, x = [1], out = [-1]) grid(1) block(1);", "GK3006 2:33 the constant -1 does not fit in u32");
    expectError(k + "launch k(n = 1, x = ones(3), out = [1]) grid(1) block(1);", "GK5007 2:21 unknown data helper 'ones'");
    expectError(k + "launch k(n = 1, x = [1], out = rand(4, 1)) grid(1) block(1);", "GK5007 2:32 rand(n, seed) makes floats in [0, 1); 'out' holds u32");
  });
  it("refuses a data helper whose array would hold more than 2^31 - 1 scalars or bytes", () => {
    const v = "struct P { a: f64, b: f64 }\ndevice_kernel k(o: global<f32x4>, p: global<P>, q: global<f32x3>) {}\n";
    expectError(v + "launch k(o = iota(2147483647), p = zeros(1), q = zeros(1)) grid(1) block(1);", "GK5007 3:19 iota(2147483647) of f32x4 would hold 8589934588 f32 lanes; an array a launch statement makes holds at most 2147483647, so at most 536870911 f32x4");
    expectError(v + "launch k(o = zeros(1), p = fill(134217728, { a: 1.0, b: 2.0 }), q = zeros(1)) grid(1) block(1);", "GK5007 3:33 fill(134217728) of P would hold 2147483648 bytes; an array a launch statement makes holds at most 2147483647, so at most 134217727 P");
    expectError(v + "launch k(o = zeros(1), p = zeros(1), q = zeros(536870912)) grid(1) block(1);", "GK5007 3:48 zeros(536870912) of f32x3 would hold 2147483648 f32 lanes");
    expectDiagnostics(v + "launch k(o = iota(536870911), p = zeros(134217727), q = zeros(536870911)) grid(1) block(1);", []);
  });
  it("checks grid and block sizes", () => {
    expectError(k + "launch k(n = 1, x = [1], out = [1]) grid(1) block(32, 64);", "GK5006 2:51 a block has at most 1024 threads, but block(32, 64, 1) has 2048");
    expectError(k + "launch k(n = 1, x = [1], out = [1]) grid(0) block(1);", "GK5006 2:42 grid size x must be between 1 and 2147483647, but it is 0");
    expectError(k + "device_fn g(): void { }\nlaunch g() grid(1) block(1);", "GK5001 3:8 'g' is a device_fn; only a device_kernel can be launched");
  });
});

describe("robustness", () => {
  it("reports all errors of a file in one run", () => {
    const r = checkSource(kernel("  let a = zz;\n  let c = f + n;\n  out[0] = yy;"));
    expect(diagnosticLines(r).map((l) => l.slice(0, 10))).toEqual(["GK2001 3:1", "GK3001 4:1", "GK2001 5:1"]);
  });
  it("does not cascade from a broken declaration", () => {
    expectDiagnostics(kernel("  let a = zz + 1;\n  out[0] = f32(a);\n  let c: f32 = a;"), ["GK2001 3:11 unknown name 'zz'"]);
  });
});

describe("small integers and half-precision floats", () => {
  const src = (body: string) => `device_kernel k(out: global<f16>, b: global<u8>, x: u8, h: f16) {\n${body}\n}\n`;
  it("give untyped constants their type only where they fit, rounding floats once", () => {
    expectError(src("  let a: f16 = 70000.0;"), "GK3006 2:16 the constant 70000.0 does not fit in f16 (its largest finite value is 65504)");
    expectError(src("  let c: u8 = 300;"), "GK3006 2:15 the constant 300 does not fit in u8 (0 to 255)");
    expectError(src("  let e: i8 = -129;"), "GK3006 2:15 the constant -129 does not fit in i8 (-128 to 127)");
    expectError(src("  let d: bf16 = 1e39;"), "GK3006 2:17 the constant 1e+39 does not fit in bf16");
    expectError(src("  b[0] = x << 8;"), "GK3006 2:15 the shift count 8 is out of range for u8 (0 to 7)");
    expectDiagnostics(src("  let a: f16 = 65519.0;\n  let c: u16 = 65535;\n  let g: i16 = -32768;\n  out[0] = a + 0.1;"), []);
  });
  it("keep operators to their classes and never convert implicitly", () => {
    expectError(src("  out[0] = h & h;"), "GK3003 2:14 '&' needs integers or bool, but its operands are f16");
    expectError(src("  out[0] = h + x;"), "GK3001 2:12 mixed types in '+': 'h' is f16 and 'x' is u8");
    expectError(src("  out[0] = f16(1) << 2;"), "GK3003 2:19 '<<' needs an integer to shift, but 'f16(1)' is f16");
    expectError(src("  b[0] = x + 1 + h;"), "GK3001");
  });
  it("type small-integer and half arithmetic as the operands' type", () => {
    expect(printed("device_kernel k(b: global<u8>, x: u8, h: bf16, o: global<bf16>) { b[0] = x * 3 + 1; o[0] = h * 0.5; }")).toContain("b[0:i32] = (x *.u8 3:u8) +.u8 1:u8;\n  o[0:i32] = h *.bf16 0.5:bf16;");
  });
});
