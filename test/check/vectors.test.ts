/** Checking vectors (src/check: expr.ts, access.ts, vectors.ts): types, constructors, lanes, swizzles, operators, builtins, vector accesses. */
import { describe, expect, it } from "vitest";
import { checkSource, diagnosticLines, expectError, printed } from "../helpers.js";

/** A kernel with vector parameters and arrays; statements start on line 3. */
const k = (body: string) =>
  `device_kernel k(v: f32x4, w: f32x4, s: f32, i: i32, iv: i32x4, u2: u32x2, b4: boolx4,\n  x: readonly global<f32>, out: global<f32x4>, o3: global<f32x3>, sc: global<f32>) {\n${body}\n}\n`;

/** The printed IR of the kernel's body (without the kernel's header line). */
const body = (src: string) => printed(k(src)).split("\n").slice(1, -2).map((l) => l.trim());

describe("vector types", () => {
  it("spells vectors as the lane type and the lane count, for every scalar type", () => {
    expect(body("  let a: f64x2; let c: boolx3; let d: u64x4 = u64x4(1);")).toEqual([
      "let a: f64x2 = zero.f64x2;",
      "let c: boolx3 = zero.boolx3;",
      "let d: u64x4 = u64x4{1:u64};",
    ]);
  });

  it("reserves vector type names", () => {
    expectError(k("  let f32x4 = 1;"), "GK2009 3:7 'f32x4' is a reserved name");
  });

  it("refuses the 1-byte and 16-bit integers as lane types, f16 and bf16 with 3 lanes, 8 lanes of other types, in types, constructors, swizzles and vector accesses (GK2041, GK3005, GK2005)", () => {
    expectError(k("  let a: f16x3;"), "GK2041 3:10 'f16x3' is not a vector type: f16 vectors have 2, 4 or 8 lanes (f16x2, f16x4, f16x8)");
    expectError(k("  let a = bf16x3(1.0);"), "GK2041 3:11 'bf16x3' is not a vector type: bf16 vectors have 2, 4 or 8 lanes");
    expectError(k("  let a = u8x4(1, 2, 3, 4);"), "GK2041 3:11 'u8x4' is not a vector type: vectors have lanes of bool, i32, u32, i64, u64, f32 or f64 (and f16, bf16 in f16x2, f16x4, f16x8, ...), not u8; use u32x4");
    expectError(k("  let a = i16x2(v.x);"), "GK2041 3:11 'i16x2' is not a vector type");
    expectError(k("  let a: f32x8;"), "GK2041 3:10 'f32x8' is not a vector type: only f16 and bf16 vectors have 8 lanes (f16x8, bf16x8; and boolx8, what comparing them gives); use two f32x4 values");
    expectError(k("  let bf16x4 = 1;"), "GK2009 3:7 'bf16x4' is a reserved name");
    expectError(k("  let a = f16x4(1.0).xyz;"), "GK2005 3:22 '.xyz' would be a vector of 3 f16 lanes, which gk has not: f16 vectors have 2, 4 or 8 lanes");
    expectError(k("  let a = f16x4(1.0).s1;"), "GK2005 3:22 '.s1' is not a lane or swizzle of a vector");
    expectError(k("  let a = f16x8(1.0).s8;"), "GK2005 3:22 '.s8' is not a lane or swizzle of a vector: its lanes are .x .y .z .w (lanes 0 to 3), .s0 to .s7");
    expectError(
      "device_kernel k(h: global<u32>) {\n  let a = load8(h, 0);\n}\n",
      "GK3005 2:17 load8() moves lanes of bool, i32, u32, i64, u64, f32 or f64, f16 and bf16 (2, 4 or 8 at a time), but 'h' holds u32; load8() moves 8 f16 or bf16 lanes (16 bytes), so for u32 use load4",
    );
    expectError(
      "device_kernel k(h: global<u8>) {\n  store2(h, 0, u32x2(1));\n}\n",
      "GK3005 2:10 store2() moves lanes of bool, i32, u32, i64, u64, f32 or f64, f16 and bf16 (2, 4 or 8 at a time), but 'h' holds u8",
    );
  });

  it("takes f16x4, f16x8, bf16x4 and bf16x8: lanes .x to .w, .s0 to .s7, .lo and .hi, load4/load8/store4/store8 of f16 and bf16 arrays, struct fields", () => {
    const src = `struct P { q: f16x4; w: bf16x8; }
device_kernel k(h: global<f16>, b: global<bf16>, ps: global<P>, v: f16x8) {
  let a = load4(h, 4) * v.hi + f16x4(1.0, f16(0.5), v.s2, v.w);
  store8(b, 8, bf16x8(bf16x4(a), bf16x4(v.lo)));
  ps[0] = { q: a.wzyx, w: load8(b, 0) };
  let c = v;
  c.s6 = a.y;
  store4(h, 0, c.lo - c.hi);
  h[8] = dot(a, a) + c.s6;
}
`;
    expect(diagnosticLines(checkSource(src))).toEqual([]);
  });

  it("takes f16x2 and bf16x2: values, conversions, lane-wise operations, load2/store2 of f16 and bf16 arrays, struct fields", () => {
    const src = `struct P { uv: f16x2; w: bf16x2; }
device_kernel k(h: global<f16>, b: global<bf16>, ps: global<P>, v: f16x2) {
  let a = load2(h, 2) * v + f16x2(1.0, f16(0.5));
  store2(b, 0, bf16x2(a) - bf16x2(b[3]));
  ps[0] = { uv: a.yx, w: bf16x2(f32x2(a)) };
  h[0] = dot(a, a) + length(sqrt(abs(a)));
}
`;
    expect(diagnosticLines(checkSource(src))).toEqual([]);
  });

  it("names CUDA's and WGSL's vector types in its hints", () => {
    expectError(k("  let a: float4;"), "GK2003 3:10 unknown type 'float4'; did you mean f32x4?");
    expectError(k("  let a: vec3f;"), "GK2003 3:10 unknown type 'vec3f'; did you mean f32x3?");
  });
});

describe("constructors", () => {
  it("takes a value per lane, a splat, or scalars and vectors whose lanes add up", () => {
    expect(body("  let a = f32x4(1, 2, 3, 4); let b = f32x4(s); let c = f32x4(v.xy, s, 0.5); let d = f32x2(1);")).toEqual([
      "const a: f32x4 = f32x4{1:f32, 2:f32, 3:f32, 4:f32};",
      "let b: f32x4 = f32x4{s};",
      "let c: f32x4 = f32x4{v.xy, s, 0.5:f32};",
      "let d: f32x2 = f32x2{1:f32};",
    ].map((l) => l.replace(/^const/, "let")));
  });

  it("converts a vector lane by lane", () => {
    expect(body("  let a = f32x4(iv); let b = i32x4(v); let c = u32x4(iv);")).toEqual(["let a: f32x4 = f32x4(iv);", "let b: i32x4 = i32x4(v);", "let c: u32x4 = u32x4(iv);"]);
  });

  it("reports the lanes and types that do not fit", () => {
    expectError(k("  let a = f32x4(1, 2, 3);"), "GK3004 3:11 f32x4() needs 4 lanes, but its arguments give 3");
    expectError(k("  let a = f32x4(1, 2, 3, 4, 5);"), "GK3004 3:11 f32x4() takes one f32 for every lane");
    expectError(k("  let a = f32x4(i, 1, 2, 3);"), "GK3005 3:17 f32x4() is built from f32 values and f32 vectors, but 'i' is i32: write f32(i)");
    expectError(k("  let a = f32x2(u2, 1.0);"), "GK3005 3:17 f32x2() is built from f32 values and f32 vectors, but 'u2' is u32x2");
    expectError(k("  let a = f32(v);"), "GK3010 3:11 f32() converts scalars, but 'v' is f32x4; to convert lane by lane write f32x4(v)");
  });
});

describe("lanes and swizzles", () => {
  it("reads lanes by x y z w or r g b a, and swizzles two to four of them", () => {
    expect(body("  let a = v.x + v.w + v.g; let b = v.zyx; let c = v.xxxx; let d = v.rg;")).toEqual([
      "let a: f32 = (v.x +.f32 v.w) +.f32 v.y;",
      "let b: f32x3 = v.zyx;",
      "let c: f32x4 = v.xxxx;",
      "let d: f32x2 = v.xy;",
    ]);
  });

  it("assigns single lanes, also compound, but not swizzles", () => {
    expect(body("  let a = v; a.y = 1.0; a.w *= 2.0;")).toEqual(["let a: f32x4 = v;", "a.y = 1:f32;", "a.w = a.w *.f32 2:f32;"]);
    expectError(k("  let a = v; a.xy = f32x2(1);"), "GK1012 3:14 cannot assign to the swizzle 'a.xy'");
  });

  it("reports lanes a vector does not have and mixed letter families", () => {
    expectError(k("  let a = u2.z;"), "GK2005 3:14 '.z' is not a lane of a 2-lane vector: its lanes are .x .y");
    expectError(k("  let a = v.xg;"), "GK2005 3:13 '.xg' is not a lane or swizzle of a vector");
    expectError(k("  let a = v.xyzwx;"), "GK2005 3:13 '.xyzwx' is not a lane or swizzle");
    expectError(k("  let a = v[0];"), "GK3008 3:11 'v' is f32x4, not an array, and cannot be indexed: a vector's lanes are .x .y .z .w");
  });
});

describe("operators", () => {
  it("works lane by lane, a scalar of the lane type standing for every lane", () => {
    expect(body("  let a = v + w * s; let b = 2.0 * v; let c = -v; let d = iv % 3 << 1; let e = ~iv & iv;")).toEqual([
      "let a: f32x4 = v +.f32x4 (w *.f32x4 f32x4{s});",
      "let b: f32x4 = f32x4{2:f32} *.f32x4 v;",
      "let c: f32x4 = -.f32x4 v;",
      "let d: i32x4 = (iv %.i32x4 i32x4{3:i32}) <<.i32x4 i32x4{1:i32};",
      "let e: i32x4 = (~.i32x4 iv) &.i32x4 iv;",
    ]);
  });

  it("never converts a scalar of another type", () => {
    expectError(k("  let a = v * i;"), "GK3001 3:11 mixed types in '*': 'v' is f32x4 and 'i' is i32");
    expectError(k("  let a = v + iv;"), "GK3001 3:11 mixed types in '+': 'v' is f32x4 and 'iv' is i32x4");
  });

  it("compares lane by lane into bool vectors, which if and && do not take", () => {
    expect(body("  let a = v < w; let b = iv == 0; let c = any(b4) && all(a);")).toEqual([
      "let a: boolx4 = v <.f32x4 w;",
      "let b: boolx4 = iv ==.i32x4 i32x4{0:i32};",
      "let c: bool = any.bool(b4) && all.bool(a);",
    ]);
    expectError(k("  if (v < w) { sc[0] = 1.0; }"), "GK3002 3:7 an if condition must be bool, but 'v < w' is boolx4: it holds one bool per lane; write any(v < w) or all(v < w)");
    expectError(k("  let a = b4 && true;"), "GK3002 3:11 the left operand of '&&' must be bool, but 'b4' is boolx4");
  });

  it("shifts by a scalar count of any integer type, or by a vector of counts", () => {
    expect(body("  let a = iv >> i; let b = iv << u2.x; let c = iv >>> iv;")).toEqual([
      "let a: i32x4 = iv >>.i32x4 i32x4{i};",
      "let b: i32x4 = iv <<.i32x4 i32x4{i32(u2.x)};",
      "let c: i32x4 = i32x4(u32x4(iv) >>.u32x4 u32x4(iv));",
    ]);
  });

  it("rejects operators a lane type does not have", () => {
    expectError(k("  let a = v & w;"), "GK3003 3:13 '&' needs integers or bool, but its operands are f32x4");
    expectError(k("  let a = b4 + b4;"), "GK3003 3:14 '+' needs numbers, but its operands are boolx4");
  });

  it("takes vectors in ?: with a bool condition", () => {
    expect(body("  let a = s > 0.0 ? v : w;")).toEqual(["let a: f32x4 = (s >.f32 0:f32) ? v : w;"]);
  });
});

describe("builtins", () => {
  it("applies math builtins lane by lane, splatting scalars", () => {
    expect(body("  let a = sqrt(v); let b = clamp(v, 0.0, s); let c = max(iv, 1); let d = isnan(v); let e = popcount(u2);")).toEqual([
      "let a: f32x4 = sqrt.f32x4(v);",
      "let b: f32x4 = clamp.f32x4(v, f32x4{0:f32}, f32x4{s});",
      "let c: i32x4 = max.i32x4(iv, i32x4{1:i32});",
      "let d: boolx4 = isnan.boolx4(v);",
      "let e: i32x2 = popcount.i32x2(u2);",
    ]);
    expectError(k("  let a = sqrt(iv);"), "GK3005 3:16 sqrt() takes vectors of f32 or f64, but 'iv' is i32x4");
  });

  it("has dot, length, distance, normalize, cross, any, all and select", () => {
    expect(body("  let a = dot(v, w); let b = length(v.xyz) + distance(v, w); let c = cross(v.xyz, w.xyz); let d = normalize(v); let e = select(v > w, v, 0.0);")).toEqual([
      "let a: f32 = dot.f32(v, w);",
      "let b: f32 = length.f32(v.xyz) +.f32 distance.f32(v, w);",
      "let c: f32x3 = cross.f32x3(v.xyz, w.xyz);",
      "let d: f32x4 = normalize.f32x4(v);",
      "let e: f32x4 = select.f32x4(v >.f32x4 w, v, f32x4{0:f32});",
    ]);
    expectError(k("  let a = dot(v, iv);"), "GK3005 3:18 dot(a, b) takes float vectors (f32x2 ... f64x4), all of one type, but 'iv' is i32x4");
    expectError(k("  let a = cross(v, w);"), "GK3005 3:17 cross(a, b) takes 3-lane float vectors");
    expectError(k("  let a = select(b4, v.xy, w.xy);"), "GK3005 3:18 the condition of select() must be bool or boolx2, but 'b4' is boolx4");
  });
});

describe("vector accesses of arrays of scalars", () => {
  it("loads and stores 2 or 4 consecutive elements, also of a row of a 2-D array", () => {
    const src = `device_kernel k(x: readonly global<f32>, y: global<f64>, i: i32) {
  shared t: f32[4][8];
  let v = load4(x, i * 4);
  store4(t[i], 4, v);
  store2(y, i, f64x2(load2(x, 0)));
  barrier();
  let w = load4(t[1], 0);
}
`;
    expect(printed(src).split("\n").slice(2, -2).map((l) => l.trim())).toEqual([
      "let v: f32x4 = x[i *.i32 4:i32..+4];",
      "t[i][4:i32..+4] = v;",
      "y[i..+2] = f64x2(x[0:i32..+2]);",
      "barrier();",
      "let w: f32x4 = t[1:i32][0:i32..+4];",
    ]);
  });

  it("reports arrays of non-scalars, readonly targets and constant ends past the array", () => {
    expectError(k("  let a = load4(out, 0);"), "GK3005 3:17 load4() reads and writes arrays of scalars, but 'out' holds f32x4: index it (out[i])");
    expectError(k("  store4(x, 0, v);"), "GK2007 3:10 store4() writes to 'x': 'x' is readonly (readonly global<f32>)");
    expectError(`device_kernel k() {\n  let a: f32[6];\n  let v = load4(a, 4);\n}\n`, "GK3008 3:20 load4() at index 4 reaches element 7, past the end of 'a', whose last dimension has size 6");
    expectError(k("  store2(sc, 0, v);"), "GK3001 3:17 the value of store2() on 'sc' is f32x2, but 'v' is f32x4");
    expectError(k("  let a = store4(sc, 0, v);"), "GK3018 3:11 store4() has no value");
  });
});

describe("arrays of vectors", () => {
  it("reads and writes elements, their lanes and swizzles", () => {
    expect(body("  out[i] = out[i + 1].wzyx; out[i].x = o3[i].z; let a = out[0].xy;")).toEqual([
      "out[i] = out[i +.i32 1:i32].wzyx;",
      "out[i].x = o3[i].z;",
      "let a: f32x2 = out[0:i32].xy;",
    ]);
  });
});

describe("atomics on vectors", () => {
  const h = (body: string) =>
    `device_kernel k(h: global<f16x2>, b: global<bf16x2>, f: global<f32x2>, hv: f16x2, bv: bf16x2) {\n  shared sh: f16x2[2][8];\n  shared sb: bf16x2[8];\n${body}\n}\n`;
  it("takes atomicAdd on f16x2 and bf16x2 elements of global and shared arrays and rows, returning the old vector", () => {
    const ir = printed(h("  let a = atomicAdd(h, 1, hv);\n  let c = atomicAdd(sh[1], 2, f16x2(1.0, -0.5));\n  atomicAdd(b, 0, bv);\n  let d: bf16x2 = atomicAdd(sb, 3, bv);"), "check");
    expect(ir).toContain("let a: f16x2 = atomic_add.f16x2(h[1:i32], hv);");
    expect(ir).toContain("let c: f16x2 = atomic_add.f16x2(sh[1:i32][2:i32], f16x2{1:f16, -0.5:f16});");
    expect(ir).toContain("atomic_add.bf16x2(b[0:i32], bv);");
    expect(ir).toContain("let d: bf16x2 = atomic_add.bf16x2(sb[3:i32], bv);");
  });
  it("refuses other vectors and other atomics on vectors with the atomic-type diagnostic (GK3017), and an operand of another type", () => {
    const vectors = "atomics update scalar elements, and vectors only in atomicAdd() on f16x2 and bf16x2 (the GPU's own instructions)";
    expectError(h("  atomicAdd(f, 0, f32x2(1.0));"), `GK3017 4:13 atomicAdd() works on i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64, f16x2, bf16x2 elements, but 'f' holds f32x2; ${vectors}`);
    expectError(h("  atomicSub(h, 0, hv);"), `GK3017 4:13 atomicSub() works on i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64 elements, but 'h' holds f16x2; ${vectors}`);
    expectError(h("  atomicMax(sb, 0, bv);"), "GK3017 4:13 atomicMax() works on");
    expectError(h("  atomicCAS(h, 0, hv, hv);"), "GK3017 4:13 atomicCAS() works on");
    expectError(h("  atomicAdd(h, 0, bv);"), "GK3001 4:19 the value of atomicAdd() on 'h' is f16x2, but 'bv' is bf16x2; gk never converts implicitly: write f16x2(bv)");
  });
});
