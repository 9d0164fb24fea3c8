/**
 * The generated kernels' segments of warp operations (kernel.ts places each at the top level of
 * the kernel body, where every thread of the block reaches it together):
 *
 * - `warpOperations`: shuffles, votes and matches stored to the thread's output slots;
 * - `tensorCores`, in blocks of whole warps only: asynchronous copies into shared memory, then
 *   ldmatrix from it and a tensor-core multiply-accumulate, stored to output slots:
 *
 *     shared sh_t: u32[T][4];                                  // T: the block's threads
 *     cpAsync(sh_t[tid], 0, in_u32, 4, 16[, valid]);           // every thread its row, 0 or 4 of in_u32
 *     shared sh_c: U[T][n];  cpAsync(sh_c[tid], 0, in_U, i, bytes);   // 4, 8 or 16 bytes of another type
 *     cpAsyncCommit();  cpAsyncWait(0);  (or cpAsyncWaitAll())
 *     barrier();
 *     out_U[o + k] = sh_c[tid ^ r][j];
 *     out_f32[o + k] = mma_m16n8k16_f16(ldmatrix_x4(sh_t[tid ^ r1], 0), ldmatrix_x2_trans(sh_t[tid ^ r2], 0), f32x4(...)).y;
 *
 *   Every row is written by its thread and read after the wait and the barrier, by threads of
 *   the same warp (`tid ^ r`, r < 32), so the copies are visible where they are read; the
 *   multiply-accumulate's shape and types are drawn (f16, bf16 with f32 or f16 accumulators,
 *   tf32 on f32 values, s8 and u8), its operands from ldmatrix or from expressions. The
 *   simulator computes every shape exactly (src/ir/tensorCore.ts), so the outputs compare bit
 *   for bit (NaN as NaN).
 */
import fc from "fast-check";
import type { Dim3 } from "../../ir/limits.js";
import { MATCH_TYPES } from "../../ir/warpBuiltins.js";
import { assign, bin, builtin, index, lit, NUM_TYPES, type Expr, type IntTy, type Stmt, type Ty, type ValTy, type VecTy } from "./ast.js";
import { INPUT_LENGTH, SLOTS } from "./kernel.js";
import type { Scope } from "./stmt.js";

const i32 = (name: string): Expr => ({ k: "name", t: "i32", name });
const slot = (t: ValTy, k: number, e: Expr): Stmt => assign({ name: `out_${t}`, t, idx: [bin("i32", "+", i32("o"), lit("i32", k))] }, "=", e);

/**
 * One to three warp operations, each stored to one of the thread's output slots: a shuffle
 * of a value of any numeric type with any i32 lane operand, a vote, or a match.
 */
export function warpOperations(scope: Scope, [bx, by, bz]: Dim3): fc.Arbitrary<Stmt[]> {
  const whole = (bx * by * bz) % 32 === 0;
  // shfl and shflXor appear only in whole warps (fewer programs): there they take most draws.
  const shuffles = whole ? fc.oneof({ arbitrary: fc.constantFrom("shfl", "shflXor"), weight: 2 }, { arbitrary: fc.constantFrom("shflUp", "shflDown"), weight: 1 }) : fc.constantFrom("shflUp", "shflDown");
  const shuffle = fc.tuple(shuffles, fc.constantFrom(...NUM_TYPES)).chain(([fn, t]) =>
    fc.tuple(scope.gen.any(t), scope.gen.any("i32")).map(([v, lane]): [Ty, Expr] => [t, builtin(t, fn, v, lane)]),
  );
  const votes = fc.constantFrom<[Ty, string]>(["u32", "ballot"], ["bool", "anyLane"], ["bool", "allLanes"]);
  const vote = fc.tuple(votes, scope.gen.any("bool")).map(([[t, fn], p]): [Ty, Expr] => [t, builtin(t, fn, p)]);
  // matchAny: the mask of the lanes holding the same value; matchAll: whether all lanes hold it (of the
  // 32- and 64-bit integers, MATCH_TYPES). Partial warps as votes.
  const match = fc
    .tuple(fc.constantFrom<[Ty, string]>(["u32", "matchAny"], ["bool", "matchAll"]), fc.constantFrom(...(MATCH_TYPES as readonly IntTy[])))
    .chain(([[t, fn], u]) => scope.gen.any(u).map((v): [Ty, Expr] => [t, builtin(t, fn, v)]));
  const op = fc.oneof({ arbitrary: shuffle, weight: 3 }, { arbitrary: vote, weight: 1 }, { arbitrary: match, weight: 1 });
  return fc.array(fc.tuple(op, fc.integer({ min: 0, max: SLOTS - 1 })), { minLength: 1, maxLength: 3 }).map((ops) => ops.map(([[t, e], k]) => slot(t, k, e)));
}

// ---------------------------------------------------------------- tensor cores

const TILE = "sh_t";
const COPY = "sh_c";
const u32x4: VecTy = "u32x4";
const u32x2: VecTy = "u32x2";

/** `name[tid ^ r]` (a row of the warp's own rows), partly indexed. */
const row = (name: string, t: ValTy, r: number): Expr => index(t, name, r === 0 ? i32("tid") : bin("i32", "^", i32("tid"), lit("i32", r)));
const lane = fc.integer({ min: 0, max: 31 });
const vecOf = (t: VecTy, parts: readonly Expr[]): Expr => ({ k: "vec", t, parts });
const member = (t: ValTy, e: Expr, name: string): Expr => ({ k: "path", t, e, path: [{ k: "field", name }] });

/** The types a second copy may move, with their sizes in bytes (bool and the 64-bit types too). */
const COPY_TYPES: readonly [Ty, number][] = [["i8", 1], ["u8", 1], ["i16", 2], ["u16", 2], ["f16", 2], ["bf16", 2], ["i32", 4], ["u32", 4], ["f32", 4], ["i64", 8], ["u64", 8], ["f64", 8]];

/** A fragment from ldmatrix: A's (x4), B's (x2, two x1, or half of an x4), maybe transposed. */
function ldmatrixA(): fc.Arbitrary<Expr> {
  return fc.tuple(fc.boolean(), lane).map(([trans, r]) => builtin(u32x4, trans ? "ldmatrix_x4_trans" : "ldmatrix_x4", row(TILE, "u32", r), lit("i32", 0)));
}

function ldmatrixB(): fc.Arbitrary<Expr> {
  return fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean(), lane, lane).map(([form, trans, r1, r2]) => {
    const t = trans ? "_trans" : "";
    if (form === 0) return builtin(u32x2, `ldmatrix_x2${t}`, row(TILE, "u32", r1), lit("i32", 0));
    if (form === 1) return vecOf(u32x2, [builtin("u32", `ldmatrix_x1${t}`, row(TILE, "u32", r1), lit("i32", 0)), builtin("u32", `ldmatrix_x1${t}`, row(TILE, "u32", r2), lit("i32", 0))]);
    return member(u32x2, builtin(u32x4, `ldmatrix_x4${t}`, row(TILE, "u32", r1), lit("i32", 0)), r2 % 2 ? "zw" : "xy");
  });
}

/** A vector of n lanes of t from expressions. */
function lanesOf(scope: Scope, t: Ty, n: 2 | 4): fc.Arbitrary<Expr> {
  return fc.array(scope.gen.any(t), { minLength: n, maxLength: n }).map((parts) => vecOf(`${t}x${n}` as VecTy, parts));
}

/** One multiply-accumulate, its result type's lane type, and the expression. */
function multiply(scope: Scope): fc.Arbitrary<[Ty, Expr]> {
  const a = fc.oneof({ arbitrary: ldmatrixA(), weight: 3 }, { arbitrary: lanesOf(scope, "u32", 4), weight: 1 });
  const b = fc.oneof({ arbitrary: ldmatrixB(), weight: 3 }, { arbitrary: lanesOf(scope, "u32", 2), weight: 1 });
  const halves = fc.tuple(fc.constantFrom("mma_m16n8k16_f16", "mma_m16n8k16_bf16"), a, b, lanesOf(scope, "f32", 4)).map(([fn, x, y, c]): [Ty, Expr] => ["f32", builtin("f32x4", fn, x, y, c)]);
  const f16acc = fc.tuple(a, b, lanesOf(scope, "u32", 2)).map(([x, y, c]): [Ty, Expr] => ["u32", builtin(u32x2, "mma_m16n8k16_f16", x, y, c)]);
  const tf32 = fc.tuple(lanesOf(scope, "f32", 4), lanesOf(scope, "f32", 2), lanesOf(scope, "f32", 4)).map(([x, y, c]): [Ty, Expr] => ["f32", builtin("f32x4", "mma_m16n8k8_tf32", x, y, c)]);
  const bytes = fc.tuple(fc.constantFrom("mma_m16n8k32_s8", "mma_m16n8k32_u8"), a, b, lanesOf(scope, "i32", 4)).map(([fn, x, y, c]): [Ty, Expr] => ["i32", builtin("i32x4", fn, x, y, c)]);
  return fc.oneof({ arbitrary: halves, weight: 3 }, { arbitrary: f16acc, weight: 1 }, { arbitrary: tf32, weight: 1 }, { arbitrary: bytes, weight: 1 });
}

/**
 * The tensor-core segment (above) for a block of `threads` threads, a multiple of 32; `sync`
 * is how the copies are waited for. Returns no statements for another block.
 */
export function tensorCores(scope: Scope, [bx, by, bz]: Dim3): fc.Arbitrary<Stmt[]> {
  const threads = bx * by * bz;
  if (threads % 32 !== 0) return fc.constant([]);
  const tileValid = fc.option(fc.integer({ min: 0, max: 4 }), { freq: 3 });
  const copy = fc.tuple(fc.constantFrom(...COPY_TYPES), fc.constantFrom(4, 8, 16), fc.nat(), fc.option(fc.nat(), { freq: 3 }), lane, fc.nat()).map(([[t, size], want, at, valid, r, j]) => {
    const bytes = Math.max(want, size);
    const n = bytes / size;
    // A whole copy from a multiple of n inside in_T (INPUT_LENGTH elements); 16 bytes of a 1-byte type need 16 of them.
    const n2 = n > INPUT_LENGTH ? INPUT_LENGTH : n;
    const b = n2 * size;
    return { t, b, n: n2, src: n2 * (at % (INPUT_LENGTH / n2)), valid: valid === null ? null : valid % (n2 + 1), r, j: j % n2 };
  });
  const wait = fc.constantFrom<Stmt[]>(
    [{ k: "do", e: builtin("u32", "cpAsyncCommit") }, { k: "do", e: builtin("u32", "cpAsyncWait", lit("i32", 0)) }],
    [{ k: "do", e: builtin("u32", "cpAsyncWaitAll") }],
    [{ k: "do", e: builtin("u32", "cpAsyncCommit") }, { k: "do", e: builtin("u32", "cpAsyncCommit") }, { k: "do", e: builtin("u32", "cpAsyncWait", lit("i32", 1)) }, { k: "do", e: builtin("u32", "cpAsyncWaitAll") }],
  );
  const products = fc.array(fc.tuple(multiply(scope), fc.constantFrom("x", "y", "z", "w"), fc.integer({ min: 0, max: SLOTS - 1 })), { minLength: 1, maxLength: 2 });
  return fc.tuple(tileValid, fc.boolean(), fc.option(copy, { freq: 2 }), wait, products).map(([valid, l2, c, sync, ms]): Stmt[] => {
    const tileCopy = [row(TILE, "u32", 0), lit("i32", 0), { k: "name", t: "u32", name: "in_u32" } as Expr, lit("i32", valid === null ? 0 : 4), lit("i32", 16), ...(valid === null ? [] : [lit("i32", valid)])];
    const out: Stmt[] = [
      { k: "shared", name: TILE, t: "u32", dims: [threads, 4] },
      { k: "do", e: builtin("u32", l2 ? "cpAsyncL2" : "cpAsync", ...tileCopy) },
    ];
    if (c) {
      out.push({ k: "shared", name: COPY, t: c.t, dims: [threads, c.n] });
      const args = [row(COPY, c.t, 0), lit("i32", 0), { k: "name", t: c.t, name: `in_${c.t}` } as Expr, lit("i32", c.src), lit("i32", c.b), ...(c.valid === null ? [] : [lit("i32", c.valid)])];
      out.push({ k: "do", e: builtin(c.t, "cpAsync", ...args) });
    }
    out.push(...sync, { k: "barrier" });
    if (c) out.push(slot(c.t, c.j % SLOTS, index(c.t, COPY, bin("i32", "^", i32("tid"), lit("i32", c.r)), lit("i32", c.j))));
    for (const [[t, e], l, k] of ms) out.push(slot(t, k, member(t, e, t === "u32" ? (l === "x" || l === "z" ? "x" : "y") : l)));
    return out;
  });
}
