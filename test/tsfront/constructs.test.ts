/**
 * Every .gk construct has a TypeScript spelling (spec/typescript.md), and the two mean the
 * same: each pair below checks to the same IR, source places aside. One entry per construct.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostics } from "../../src/diagnostics/format.js";
import { printModule } from "../../src/ir/print.js";
import { checkGk, checkTs, GK_IMPORTS, withoutPlaces } from "./helpers.js";

interface Pair {
  readonly construct: string;
  readonly gk: string;
  readonly ts: string;
  /** Other files of the program, for both. */
  readonly files?: Record<string, string>;
}

/** A kernel with a few parameters around statements, in both spellings. */
function body(name: string, gkBody: string, tsBody: string): Pair {
  return {
    construct: name,
    gk: `device_kernel k(n: i32, x: readonly global<f32>, out: global<f32>, iout: global<i32>, l: i64, lout: global<i64>) {\n${gkBody}\n}\n`,
    ts: `${GK_IMPORTS}export const k = kernel((n: i32, x: ReadonlyGlobal<f32>, out: Global<f32>, iout: Global<i32>, l: i64, lout: Global<i64>) => {\n${tsBody}\n});\n`,
  };
}
const same = (name: string, stmts: string) => body(name, stmts, stmts);

/** gk's vector names, imported beside GK_IMPORTS by the vector and struct pairs. */
const VECTOR_IMPORTS = 'import { f32x2, f32x3, f32x4, i32x2, boolx3, u32x2, bitcast, dot, length, normalize, distance, cross, select, any, all, load2, load4, store2, store4 } from "gk";\n';
/** A kernel of vector code, in both spellings. */
function vectors(name: string, gkBody: string, tsBody: string): Pair {
  const p = body(name, gkBody, tsBody);
  return { ...p, ts: `${VECTOR_IMPORTS}${p.ts}` };
}

const PAIRS: readonly Pair[] = [
  same("let, const, several names in one declaration, a typed local", "let a = 1, b: f32 = 2.0, c = a + 2;\nconst d = c * 2;\nout[0] = b;\niout[0] = d;"),
  same("literals: hex, binary, octal, separators, floats, exponents", "iout[0] = 0xFF + 0b101 + 0o17 + 1_000;\nout[0] = 1.5 + .5 + 1e-3 + 2.5E+4;"),
  body("a 64-bit literal: a bigint literal in TypeScript", "lout[0] = l + 1;", "lout[0] = l + 1n;"),
  same("conversions", "iout[0] = i32(x[0]);\nout[0] = f32(n) + f32(u32(-1));"),
  same("every assignment operator, ++ and --", "let a = n;\na += 1; a -= 1; a *= 3; a /= 2; a %= 5; a &= 7; a |= 8; a ^= 1; a <<= 2; a >>= 1; a >>>= 1;\na++; a--; ++a; --a;\niout[0] = a;"),
  same("operators and precedence, ?:, &&, ||, !, ~, unary -", "const b = n > 0 && !(n == 3) || n <= -1;\niout[0] = b ? ~n : -n % 3 + (n << 2 >> 1 >>> 1) * 2 - (n & 3 | 4 ^ 1);"),
  same("if / else if / else", "if (n < 0) { iout[0] = 1; } else if (n == 0) iout[0] = 2; else { iout[0] = 3; }"),
  same("for with several names, comma steps, continue and break", "for (let i = 0, j = n; i < j; i++, j--) { if (i == 2) continue; if (i > 5) break; iout[i] = j; }"),
  same("for with assignments as its start", "let i = 0;\nlet j = 0;\nfor (i = 1, j = 2; i < n; i += 1) { iout[i] = j; }"),
  same("while and do ... while", "let i = 0;\nwhile (i < n) { i += 2; }\ndo { i -= 1; } while (i > 0);\niout[0] = i;"),
  same("switch: shared bodies, default, return", "switch (n) {\n  case 1:\n  case 2:\n    iout[0] = 1;\n    break;\n  case 3: { iout[0] = 3; break; }\n  default:\n    return;\n}"),
  same("return with no value, an empty statement, a block", "{ ; }\nif (n < 0) { return; }\niout[0] = n;"),
  body("a local array, zero-filled", "let a: f32[8];\na[n] = 1.0;\nout[0] = a[0];", "const a = local(f32, 8);\na[n] = 1.0;\nout[0] = a[0];"),
  body("a two-dimensional local array from a literal", "let g: i32[2][2] = [[1, 2], [3, 4]];\niout[0] = g[1][0];", "const g = local(i32, [[1, 2], [3, 4]]);\niout[0] = g[1][0];"),
  body("a local array with its sizes and flat values", "let g: i32[2][2] = [1, 2, 3, 4];\niout[0] = g[1][1];", "const g = local(i32, [2, 2], [1, 2, 3, 4]);\niout[0] = g[1][1];"),
  same("a local array typed by its literal", "let w = [0.25, 0.5, 0.25];\nout[0] = w[1];"),
  body("shared arrays and barrier()", "shared t: f32[16][16];\nshared s: i32[32];\nt[threadIdx.y][threadIdx.x] = x[0];\ns[threadIdx.x] = 1;\nbarrier();\nout[0] = t[0][1] + f32(s[3]);", "const t = shared(f32, 16, 16);\nconst s = shared(i32, 32);\nt[threadIdx.y][threadIdx.x] = x[0];\ns[threadIdx.x] = 1;\nbarrier();\nout[0] = t[0][1] + f32(s[3]);"),
  body("a scalar shared variable and atomics on it", "shared total: i32;\nif (threadIdx.x == 0) { total = 0; }\nbarrier();\natomicAdd(total, 0, 1);\nbarrier();\niout[0] = total;", "let total = shared(i32);\nif (threadIdx.x == 0) { total = 0; }\nbarrier();\natomicAdd(total, 0, 1);\nbarrier();\niout[0] = total;"),
  same("atomics on global memory, atomicCAS", "const old = atomicAdd(iout, 0, 1);\natomicCAS(iout, 1, old, 5);"),
  same("thread indices, blockDim, gridDim, globalId", "iout[globalId.x] = threadIdx.x + blockIdx.y * blockDim.z + gridDim.x + globalId.y;"),
  same("warp operations: shflDown, ballot, laneId, warpSize", "const v = shflDown(x[laneId], 1);\nout[laneId] = v;\niout[0] = i32(ballot(v > 0.0)) + warpSize;"),
  same("math builtins, Infinity and NaN", "out[0] = sqrt(x[0]) + min(x[1], 2.0) + max(-Infinity, x[2]);\nlet m: f64 = NaN;\nif (m != m) { out[1] = 1.0; }"),
  {
    construct: "module constants: untyped, typed, tables (one and two dimensions)",
    gk: "const N = 4;\nconst S: f32 = 0.5;\nconst H = S * 2.0;\nconst TAPS: f32[3] = [0.25, 0.5, 0.25];\nconst W: i32[2][3] = [[1, 2, 3], [4, 5, 6]];\nconst V: i32[2][2] = [1, 2, 3, 4];\ndevice_kernel k(out: global<f32>, iout: global<i32>) {\n  out[0] = TAPS[1] * S + H;\n  iout[0] = W[1][2] + N + V[1][0];\n}\n",
    ts: `${GK_IMPORTS}const N = 4;\nconst S: f32 = 0.5;\nconst H = S * 2.0;\nconst TAPS = table(f32, [0.25, 0.5, 0.25]);\nconst W = table(i32, [[1, 2, 3], [4, 5, 6]]);\nconst V = table(i32, [2, 2], [1, 2, 3, 4]);\nexport const k = kernel((out: Global<f32>, iout: Global<i32>) => {\n  out[0] = TAPS[1] * S + H;\n  iout[0] = W[1][2] + N + V[1][0];\n});\n`,
  },
  {
    construct: "device functions: a value, void, global and shared array parameters, an expression body",
    gk: "device_fn sq(v: f32): f32 { return v * v; }\ndevice_fn put(a: global<f32>, i: i32, v: f32) { a[i] = v; }\ndevice_fn sum(s: shared f32[4]): f32 { return s[0] + s[3]; }\ndevice_kernel k(out: global<f32>) {\n  shared t: f32[4];\n  t[threadIdx.x] = 1.0;\n  barrier();\n  put(out, 0, sq(sum(t)));\n}\n",
    ts: `${GK_IMPORTS}const sq = deviceFn((v: f32): f32 => v * v);\nconst put = deviceFn((a: Global<f32>, i: i32, v: f32) => {\n  a[i] = v;\n});\nconst sum = deviceFn((s: Shared<f32, [4]>): f32 => {\n  return s[0] + s[3];\n});\nexport const k = kernel((out: Global<f32>) => {\n  const t = shared(f32, 4);\n  t[threadIdx.x] = 1.0;\n  barrier();\n  put(out, 0, sq(sum(t)));\n});\n`,
  },
  {
    construct: "a shared array parameter sized by a constant",
    gk: "const M = 8;\ndevice_fn first(s: shared f32[M]): f32 { return s[0]; }\ndevice_kernel k(out: global<f32>) {\n  shared t: f32[M];\n  t[0] = 1.0;\n  out[0] = first(t);\n}\n",
    ts: `${GK_IMPORTS}const M = 8;\nconst first = deviceFn((s: Shared<f32, [typeof M]>): f32 => s[0]);\nexport const k = kernel((out: Global<f32>) => {\n  const t = shared(f32, M);\n  t[0] = 1.0;\n  out[0] = first(t);\n});\n`,
  },
  {
    construct: "imports of a device function and a constant from a .gk file",
    files: { "lib.gk": "export const K = 3;\nexport device_fn twice(v: f32): f32 { return v * 2.0; }\n" },
    gk: `import { twice, K } from "./lib.gk";\ndevice_kernel k(out: global<f32>) {\n  out[K] = twice(out[0]);\n}\n`,
    ts: `${GK_IMPORTS}import { twice, K } from "./lib.gk";\nexport const k = kernel((out: Global<f32>) => {\n  out[K] = twice(out[0]);\n});\n`,
  },
  {
    construct: "a device function written in TypeScript, imported from another TypeScript file (as ./lib.js)",
    files: {
      "lib.gk": "export device_fn twice(v: f32): f32 { return v * 2.0; }\n",
      "lib.ts": `${GK_IMPORTS}export const twice = deviceFn((v: f32): f32 => {\n  return v * 2.0;\n});\n`,
    },
    gk: `import { twice } from "./lib.gk";\ndevice_kernel k(out: global<f32>) {\n  out[0] = twice(out[1]);\n}\n`,
    ts: `${GK_IMPORTS}import { twice } from "./lib.js";\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = twice(out[1]);\n});\n`,
  },
  {
    construct: "a function expression, not an arrow",
    gk: "device_kernel k(out: global<f32>) {\n  out[0] = 1.0;\n}\n",
    ts: `${GK_IMPORTS}export const k = kernel(function (out: Global<f32>) {\n  out[0] = 1.0;\n});\n`,
  },
  body("x! (TypeScript's not-undefined, for noUncheckedIndexedAccess) is x", "out[0] = x[0] + x[1];", "out[0] = x[0]! + x[1]!;"),
  {
    construct: "the small integers and halves (i8 u8 i16 u16 f16 bf16): parameters, arrays in every space, tables, conversions, atomics",
    gk: `const W: f16[2] = [0.5, 0.25];
const LEVELS: u8[2][2] = [[0, 64], [128, 255]];
const B: u8 = 200;
const EPS: bf16 = 0.0078125;
device_fn widen(a: i8, b: u8): i16 { return i16(a) * i16(b); }
device_kernel k(a: i8, b: u8, c: i16, d: u16, h: f16, g: bf16, bytes: readonly global<u8>, o8: global<i8>, o16: global<u16>, oh: global<f16>, ob: global<bf16>, sums: global<u16>) {
  shared t: f16[8];
  shared count: u16;
  let l: i16[2] = [-1, 1];
  let x: f16 = 0.5;
  t[threadIdx.x] = h * W[threadIdx.x & 1] + x;
  barrier();
  o8[0] = a + i8(c) - 1;
  o16[0] = d * u16(b) + u16(l[1]) + u16(widen(a, bytes[0])) + u16(LEVELS[1][1]);
  oh[0] = max(t[0], f16(1.5)) + sqrt(h);
  ob[0] = g * bf16(h) + bf16(B) + EPS;
  atomicAdd(sums, 0, d);
  atomicAdd(count, 0, u16(1));
}
`,
    ts: `${GK_IMPORTS}const W = table(f16, [0.5, 0.25]);
const LEVELS = table(u8, [[0, 64], [128, 255]]);
const B: u8 = 200;
const EPS: bf16 = 0.0078125;
const widen = deviceFn((a: i8, b: u8): i16 => i16(a) * i16(b));
export const k = kernel((a: i8, b: u8, c: i16, d: u16, h: f16, g: bf16, bytes: ReadonlyGlobal<u8>, o8: Global<i8>, o16: Global<u16>, oh: Global<f16>, ob: Global<bf16>, sums: Global<u16>) => {
  const t = shared(f16, 8);
  let count = shared(u16);
  const l = local(i16, [-1, 1]);
  let x: f16 = 0.5;
  t[threadIdx.x] = h * W[threadIdx.x & 1] + x;
  barrier();
  o8[0] = a + i8(c) - 1;
  o16[0] = d * u16(b) + u16(l[1]) + u16(widen(a, bytes[0])) + u16(LEVELS[1][1]);
  oh[0] = max(t[0], f16(1.5)) + sqrt(h);
  ob[0] = g * bf16(h) + bf16(B) + EPS;
  atomicAdd(sums, 0, d);
  atomicAdd(count, 0, u16(1));
});
`,
  },
  body("a dynamic shared array (its length given by each launch)", "shared buf: f32[];\nshared idx: i32[];\nbuf[threadIdx.x] = x[0];\nidx[threadIdx.x] = n;\nbarrier();\nout[0] = buf[0] + f32(idx[1]);", "const buf = dynamicShared(f32);\nconst idx = dynamicShared(i32);\nbuf[threadIdx.x] = x[0];\nidx[threadIdx.x] = n;\nbarrier();\nout[0] = buf[0] + f32(idx[1]);"),
  {
    construct: "arrays of constant memory (filled by each launch), read by a kernel and a device function, exported",
    gk: "const R = 2;\nexport constant TAPS: f32[2 * R + 1];\nconstant GRID: i32[2][3];\ndevice_fn tap(k: i32): f32 { return TAPS[k]; }\ndevice_kernel k(out: global<f32>, iout: global<i32>) {\n  out[0] = tap(1) + TAPS[2 * R];\n  iout[0] = GRID[1][2];\n}\n",
    ts: `${GK_IMPORTS}const R = 2;\nexport const TAPS = constant(f32, 2 * R + 1);\nconst GRID = constant(i32, 2, 3);\nconst tap = deviceFn((k: i32): f32 => TAPS[k]);\nexport const k = kernel((out: Global<f32>, iout: Global<i32>) => {\n  out[0] = tap(1) + TAPS[2 * R];\n  iout[0] = GRID[1][2];\n});\n`,
  },
  {
    construct: "views: view(a, offset, length, stride), a whole array by name, a row, readonly views",
    gk: "device_fn total(v: readonly view<f32>, n: i32): f32 {\n  let s = 0.0;\n  for (let i = 0; i < n; i++) { s += v[i]; }\n  return s;\n}\ndevice_fn clear(v: view<f32>) { v[0] = 0.0; }\ndevice_kernel k(x: readonly global<f32>, out: global<f32>) {\n  let tile: f32[4][4];\n  clear(view(out, 1, 2, 2));\n  clear(tile[1]);\n  clear(view(tile[2], 1));\n  out[0] = total(x, 4) + total(view(x, 2, 3), 3) + total(tile[1], 4) + total(view(out, 0, 2, 1), 2);\n}\n",
    ts: `${GK_IMPORTS}const total = deviceFn((v: ReadView<f32>, n: i32): f32 => {\n  let s = 0.0;\n  for (let i = 0; i < n; i++) { s += v[i]; }\n  return s;\n});\nconst clear = deviceFn((v: View<f32>) => { v[0] = 0.0; });\nexport const k = kernel((x: ReadonlyGlobal<f32>, out: Global<f32>) => {\n  const tile = local(f32, 4, 4);\n  clear(view(out, 1, 2, 2));\n  clear(tile[1]);\n  clear(view(tile[2], 1));\n  out[0] = total(x, 4) + total(view(x, 2, 3), 3) + total(tile[1], 4) + total(view(out, 0, 2, 1), 2);\n});\n`,
  },
  {
    construct: "references: inout and out parameters, of variables, elements and shared scalars",
    gk: "device_fn swap(a: inout f32, b: inout f32) { const t = a; a = b; b = t; }\ndevice_fn split(v: i32, hi: out i32, lo: out i32) { hi = v >> 16; lo = v & 0xFFFF; }\ndevice_fn bump(c: inout i32) { c += 1; c++; }\ndevice_kernel k(n: i32, out: global<f32>, iout: global<i32>) {\n  shared count: i32;\n  let p = 1.0;\n  let q = 2.0;\n  swap(p, q);\n  swap(out[0], out[n]);\n  let h: i32;\n  split(n, h, iout[1]);\n  bump(count);\n  iout[0] = h;\n  out[2] = p;\n}\n",
    ts: `${GK_IMPORTS}const swap = deviceFn((a: InOut<f32>, b: InOut<f32>) => { const t = a; a = b; b = t; });\nconst split = deviceFn((v: i32, hi: Out<i32>, lo: Out<i32>) => { hi = v >> 16; lo = v & 0xFFFF; });\nconst bump = deviceFn((c: InOut<i32>) => { c += 1; c++; });\nexport const k = kernel((n: i32, out: Global<f32>, iout: Global<i32>) => {\n  let count = shared(i32);\n  let p = 1.0;\n  let q = 2.0;\n  swap(p, q);\n  swap(out[0], out[n]);\n  let h: i32;\n  split(n, h, iout[1]);\n  bump(count);\n  iout[0] = h;\n  out[2] = p;\n});\n`,
  },
  same("fast f32 builtins", "out[0] = fastExp(x[0]) + fastLog(x[1]) + fastDiv(x[2], 3.0) + fastSin(x[3]) + fastPow(x[4], 2.0);"),
  same("memory fences, acquire/release and volatile loads and stores", "storeVolatile(iout, 1, 5);\nthreadfence();\nthreadfenceBlock();\nstoreRelease(iout, 0, 1);\nconst f = loadAcquire(iout, 0);\nconst g = loadVolatile(iout, 1);\niout[2] = f + g;"),
  same("warp match: matchAny, matchAll", "const m = matchAny(n);\nif (matchAll(l)) { iout[0] = i32(m); }"),
  {
    construct: "asynchronous copies: cpAsync (with a valid count), cpAsyncL2, commit, wait, wait all",
    gk: "device_kernel k(x: readonly global<f32>, out: global<f32>) {\n  shared t: f32[2][64];\n  cpAsync(t[0], 4 * threadIdx.x, x, 4 * threadIdx.x, 16, 3);\n  cpAsyncL2(t[1], 4 * threadIdx.x, x, 64 + 4 * threadIdx.x, 16);\n  cpAsyncCommit();\n  cpAsyncWait(0);\n  cpAsyncWaitAll();\n  barrier();\n  out[threadIdx.x] = t[1][threadIdx.x];\n}\n",
    ts: 'import { kernel, shared, threadIdx, barrier, f32, cpAsync, cpAsyncL2, cpAsyncCommit, cpAsyncWait, cpAsyncWaitAll, type Global, type ReadonlyGlobal } from "gk";\nexport const k = kernel((x: ReadonlyGlobal<f32>, out: Global<f32>) => {\n  const t = shared(f32, 2, 64);\n  cpAsync(t[0]!, 4 * threadIdx.x, x, 4 * threadIdx.x, 16, 3);\n  cpAsyncL2(t[1]!, 4 * threadIdx.x, x, 64 + 4 * threadIdx.x, 16);\n  cpAsyncCommit();\n  cpAsyncWait(0);\n  cpAsyncWaitAll();\n  barrier();\n  out[threadIdx.x] = t[1]![threadIdx.x]!;\n});\n',
  },
  body("@unroll, @unroll(4), @unroll(1) before for, while and do loops", "@unroll\nfor (let i = 0; i < 4; i++) { out[i] = 0.0; }\nlet j = 0;\n@unroll(4)\nwhile (j < n) { j++; }\n@unroll(1)\ndo { j--; } while (j > 0);\niout[0] = j;", "unroll();\nfor (let i = 0; i < 4; i++) { out[i] = 0.0; }\nlet j = 0;\nunroll(4);\nwhile (j < n) { j++; }\nunroll(1);\ndo { j--; } while (j > 0);\niout[0] = j;"),
  vectors("vector constructors (per lane, splat, mixed parts), lanes (v.x!), swizzles, assigning a lane",
    "let v = f32x4(1.0, 2.0, 3.0, 4.0);\nlet w = f32x4(v.xy, 0.5, x[0]);\nlet u = f32x4(x[1]);\nv.y = 1.0;\nv.w *= 2.0;\nconst s = v.zyx;\nout[0] = v.x + w.w + s.y + u.r;",
    "let v = f32x4(1.0, 2.0, 3.0, 4.0);\nlet w = f32x4(v.xy!, 0.5, x[0]);\nlet u = f32x4(x[1]);\nv.y = 1.0;\nv.w! *= 2.0;\nconst s = v.zyx!;\nout[0] = v.x! + w.w! + s.y! + u.r!;"),
  vectors("lane-wise operators, a vector and a scalar of its lane type, compound assignment; dot, length, normalize, distance",
    "let a = f32x4(x[0]);\nconst b = a * 2.0 + a / f32x4(3.0) - -a;\na += b;\na *= x[1];\nout[0] = dot(a, b) + length(normalize(b)) + distance(a, b);",
    "let a = f32x4(x[0]);\nconst b = a * 2.0 + a / f32x4(3.0) - -a;\na += b;\na *= x[1];\nout[0] = dot(a, b) + length(normalize(b)) + distance(a, b);"),
  vectors("cross, comparisons to bool vectors, any, all, select; integer vectors",
    "const c = cross(f32x3(1.0, 0.0, 0.0), f32x3(0.0, 1.0, 0.0));\nconst m = f32x3(x[0]) < c;\nif (any(m) && !all(m)) { out[0] = select(m, c, f32x3(0.0)).z; }\nconst q = i32x2(n, 3) * 2 % i32x2(5);\niout[0] = q.x ^ q.y;",
    "const c = cross(f32x3(1.0, 0.0, 0.0), f32x3(0.0, 1.0, 0.0));\nconst m = f32x3(x[0]) < c;\nif (any(m) && !all(m)) { out[0] = select(m, c, f32x3(0.0)).z!; }\nconst q = i32x2(n, 3) * 2 % i32x2(5);\niout[0] = q.x! ^ q.y!;"),
  {
    construct: "f16x4 and f16x8: lanes, .s0 to .s7, .lo and .hi, load4/load8/store8 of f16 arrays",
    gk: "device_kernel k(h: global<f16>, w: readonly global<u32x4>) {\n  let a = load8(h, 8) + bitcast<f16x8>(w[0]);\n  a.s6 = a.x;\n  const q = load4(h, 4) * a.hi;\n  store8(h, 0, f16x8(q.wzyx, a.lo));\n  h[16] = a.s7 + q.y;\n}\n",
    ts: 'import { kernel, f16x4, f16x8, load4, load8, store8, bitcast, type f16, type u32x4, type Global, type ReadonlyGlobal } from "gk";\nexport const k = kernel((h: Global<f16>, w: ReadonlyGlobal<u32x4>) => {\n  let a = load8(h, 8) + bitcast<f16x8>(w[0]);\n  a.s6 = a.x!;\n  const q = load4(h, 4) * a.hi!;\n  store8(h, 0, f16x8(q.wzyx!, a.lo!));\n  h[16] = a.s7! + q.y!;\n});\n',
  },
  {
    construct: "atomicAdd of f16x2 and bf16x2 elements: global arrays and a row of a shared array, the old vector",
    gk: "device_kernel k(h: global<f16x2>, b: global<bf16x2>) {\n  shared s: bf16x2[2][4];\n  const old = atomicAdd(h, threadIdx.x, f16x2(1.0, 2.0));\n  atomicAdd(s[1], 0, bf16x2(old));\n  atomicAdd(b, 1, s[1][0]);\n}\n",
    ts: 'import { kernel, shared, threadIdx, atomicAdd, f16x2, bf16x2, type Global } from "gk";\nexport const k = kernel((h: Global<f16x2>, b: Global<bf16x2>) => {\n  const s = shared(bf16x2, 2, 4);\n  const old = atomicAdd(h, threadIdx.x, f16x2(1.0, 2.0));\n  atomicAdd(s[1], 0, bf16x2(old));\n  atomicAdd(b, 1, s[1][0]);\n});\n',
  },
  vectors("bitcast<T>(v) of scalars and vectors",
    "iout[0] = i32(bitcast<u32>(x[0]) >> 23);\nout[0] = bitcast<f32>(iout[1]);\nconst w = bitcast<u32x2>(l);\nlout[0] = bitcast<i64>(f32x2(bitcast<f32>(w.x), x[1]));",
    "iout[0] = i32(bitcast<u32>(x[0]) >> 23);\nout[0] = bitcast<f32>(iout[1]);\nconst w = bitcast<u32x2>(l);\nlout[0] = bitcast<i64>(f32x2(bitcast<f32>(w.x!), x[1]));"),
  vectors("vector accesses: load2, load4, store2, store4",
    "store4(out, 0, load4(x, 4));\nconst p = load2(iout, 4);\nstore2(iout, 2, p.yx);",
    "store4(out, 0, load4(x, 4));\nconst p = load2(iout, 4);\nstore2(iout, 2, p.yx!);"),
  vectors("a local array of vectors, a typed vector local",
    "let acc: f32x4[2][2];\nlet t: f32x2 = f32x2(1.0, 2.0);\nacc[1][0] += load4(x, 0) * t.x;\nstore4(out, 0, acc[1][0]);",
    "const acc = local(f32x4, 2, 2);\nlet t: f32x2 = f32x2(1.0, 2.0);\nacc[1][0] += load4(x, 0) * t.x!;\nstore4(out, 0, acc[1][0]);"),
  {
    construct: "vector parameters, global arrays of vectors, a device function of vectors",
    gk: "device_fn scale(v: f32x3, s: f32): f32x3 {\n  return v * s;\n}\ndevice_kernel k(g: f32x3, a: global<f32x3>, b: readonly global<i32x2>, out: global<i32>) {\n  a[0] = scale(a[1] + g, 0.5);\n  out[0] = b[0].x + b[1].y;\n}\n",
    ts: `${GK_IMPORTS}${VECTOR_IMPORTS}const scale = deviceFn((v: f32x3, s: f32): f32x3 => v * s);\nexport const k = kernel((g: f32x3, a: Global<f32x3>, b: ReadonlyGlobal<i32x2>, out: Global<i32>) => {\n  a[0] = scale(a[1] + g, 0.5);\n  out[0] = b[0].x! + b[1].y!;\n});\n`,
  },
  {
    construct: "structs: an interface of gk-typed fields; struct values as object literals (`{ vel }` is `{ vel: vel }`); fields and paths; passed to and returned from device functions; global arrays of structs",
    gk: "struct Particle {\n  pos: f32x3;\n  vel: f32x3;\n  bounces: i32;\n}\ndevice_fn moved(p: Particle, dt: f32): Particle {\n  let q = p;\n  q.pos += q.vel * dt;\n  if (q.pos.y < 0.0) {\n    q.pos.y = 0.0;\n    q.bounces += 1;\n  }\n  return q;\n}\ndevice_kernel k(n: i32, ps: global<Particle>, out: global<i32>) {\n  const vel = f32x3(0.0, -1.0, 0.0);\n  const p: Particle = { pos: f32x3(0.0), vel: vel, bounces: n };\n  ps[0] = moved(p, 0.5);\n  ps[1].vel.x = 2.0;\n  out[0] = ps[1].bounces;\n}\n",
    ts: `${GK_IMPORTS}${VECTOR_IMPORTS}interface Particle {\n  pos: f32x3;\n  vel: f32x3;\n  bounces: i32;\n}\nconst moved = deviceFn((p: Particle, dt: f32): Particle => {\n  let q = p;\n  q.pos += q.vel * dt;\n  if (q.pos.y! < 0.0) {\n    q.pos.y = 0.0;\n    q.bounces += 1;\n  }\n  return q;\n});\nexport const k = kernel((n: i32, ps: Global<Particle>, out: Global<i32>) => {\n  const vel = f32x3(0.0, -1.0, 0.0);\n  const p: Particle = { pos: f32x3(0.0), vel, bounces: n };\n  ps[0] = moved(p, 0.5);\n  ps[1].vel.x = 2.0;\n  out[0] = ps[1].bounces;\n});\n`,
  },
  {
    construct: "an exported struct, a struct field of struct type (declared after it is used)",
    gk: "export struct Box {\n  lo: Corner;\n  hi: Corner;\n}\nstruct Corner {\n  at: f32x2;\n  id: u32;\n}\ndevice_kernel k(bs: readonly global<Box>, out: global<f32>) {\n  out[0] = bs[0].hi.at.x - bs[0].lo.at.x;\n}\n",
    ts: `${GK_IMPORTS}${VECTOR_IMPORTS}export interface Box {\n  lo: Corner;\n  hi: Corner;\n}\ninterface Corner {\n  at: f32x2;\n  id: u32;\n}\nexport const k = kernel((bs: ReadonlyGlobal<Box>, out: Global<f32>) => {\n  out[0] = bs[0].hi.at.x! - bs[0].lo.at.x!;\n});\n`,
  },
  {
    construct: "@flushToZero: a module option",
    gk: "@flushToZero;\ndevice_kernel k(x: readonly global<f32>, out: global<f32>) {\n  out[0] = x[0] * 0.5;\n}\n",
    ts: `${GK_IMPORTS}flushToZero();\nexport const k = kernel((x: ReadonlyGlobal<f32>, out: Global<f32>) => {\n  out[0] = x[0] * 0.5;\n});\n`,
  },
  {
    construct: "@launchBounds and @maxRegisters: a kernel's annotation, the first statement of its body",
    gk: "@launchBounds(256, 2)\ndevice_kernel k(out: global<f32>) {\n  out[0] = 1.0;\n}\n@maxRegisters(64)\ndevice_kernel m(out: global<f32>) {\n  out[0] = 2.0;\n}\n",
    ts: `${GK_IMPORTS}export const k = kernel((out: Global<f32>) => {\n  launchBounds(256, 2);\n  out[0] = 1.0;\n});\nexport const m = kernel((out: Global<f32>) => {\n  maxRegisters(64);\n  out[0] = 2.0;\n});\n`,
  },
  {
    construct: "a kernel named as the C++ symbol it is (name fidelity): CUDAkernel2DCT",
    gk: "device_kernel CUDAkernel2DCT(out: global<f32>) {\n  out[0] = 1.0;\n}\n",
    ts: `${GK_IMPORTS}export const CUDAkernel2DCT = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n`,
  },
];

describe("each .gk construct and its TypeScript spelling check to the same IR", () => {
  for (const p of PAIRS) {
    it(p.construct, () => {
      const a = checkGk(p.gk, p.files);
      const b = checkTs(p.ts, p.files);
      expect(formatDiagnostics(a.diagnostics, a.sources), "the .gk form").toBe("");
      expect(formatDiagnostics(b.diagnostics, b.sources), "the TypeScript form").toBe("");
      expect(printModule(b.ir!)).toBe(printModule(a.ir!));
      expect(withoutPlaces(b.ir)).toEqual(withoutPlaces(a.ir));
    });
  }
});

describe("host code beside kernels", () => {
  it("is left alone: host variables, functions, classes and imports that no kernel uses are not gk's business", () => {
    const r = checkTs(`import { readFileSync } from "node:fs";\n${GK_IMPORTS}const data = new Float32Array(8);\nlet count = 0;\nfunction helper(s: string): string { return s + "!"; }\nclass Box { v = 1; }\nconst blockSize: number = 256;\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\nconsole.log(helper("a"), data, count, new Box(), readFileSync, blockSize);\n`);
    expect(formatDiagnostics(r.diagnostics, r.sources)).toBe("");
    expect(r.ir!.kernels.map((k) => k.name)).toEqual(["k"]);
  });

  it("a host const that gk could compute becomes a constant, and one it cannot stays on the host", () => {
    const r = checkTs(`${GK_IMPORTS}const A = 2;\nconst B = A * 3 + f32(0.5);\nconst C = Math.PI;\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = B;\n});\n`);
    expect(formatDiagnostics(r.diagnostics, r.sources)).toBe("");
    expect(r.ir!.exported!.map((c) => c.name)).toEqual(["A", "B"]);
  });
});
