/**
 * `ldmatrix` (PTX `ldmatrix.sync.aligned.m8n8.shared.b16`, sm_75 and later): a warp loads one,
 * two or four 8×8 matrices of 16-bit elements from shared memory straight into the fragment
 * registers of the tensor-core builtins (src/ir/mmaBuiltins.ts).
 *
 * `ldmatrix_x4(arr, i)`: `arr` is a `shared` array of u32 (words of two halves, the element
 * with the smaller index in the low bits), `i` the index of the first word of this lane's row:
 * 16 bytes, 4 words, aligned to 4 words (GK8030 otherwise). Lane l names row l mod 8 of matrix
 * ⌊l/8⌋; lane l receives, for each matrix j, the word of row ⌊l/4⌋, column l mod 4 (register j
 * of the result): with `.trans`, the halves at (row 2(l mod 4), column ⌊l/4⌋) and (row
 * 2(l mod 4) + 1, column ⌊l/4⌋) instead, the matrix transposed. `.x1` and `.x2` read only the
 * rows named by lanes 0–7 and 0–15; gk still has every lane name a row it could read (its
 * address is checked like any load4), which keeps the simulator's checks whole.
 *
 * The IR holds the lane's row as a `load4` of `arr` at `i` (the operand), so bounds,
 * alignment and uninitialized-shared checks are the load's; the simulator gathers the 32
 * lanes' rows and hands each lane its words.
 */
import type { WarpEntry } from "./builtins.js";
import type { LdmatrixOp } from "./nodes.js";
import type { ScalarValue } from "./types.js";

/** The word lane `lane` receives from one matrix, given the 8 rows (4 words each) of that matrix. */
function word(rows: readonly (readonly ScalarValue[])[], lane: number, trans: boolean): number {
  if (!trans) return rows[lane >> 2]![lane & 3] as number;
  const col = lane >> 2, r = 2 * (lane & 3);
  const half = (row: number) => ((rows[row]![col >> 1] as number) >>> (16 * (col & 1))) & 0xffff;
  return (half(r) | (half(r + 1) << 16)) >>> 0;
}

function load(matrices: 1 | 2 | 4, trans: boolean) {
  return (lanes: readonly (readonly (readonly ScalarValue[])[])[]): (ScalarValue | ScalarValue[])[] => {
    const rowsOf = (j: number) => Array.from({ length: 8 }, (_, r) => lanes[8 * j + r]![0]!);
    const mats = Array.from({ length: matrices }, (_, j) => rowsOf(j));
    return lanes.map((_, l) => (matrices === 1 ? word(mats[0]!, l, trans) : mats.map((m) => word(m, l, trans))));
  };
}

const RESULT = { 1: "a u32", 2: "a u32x2 (a B fragment of m16n8k16)", 4: "a u32x4 (an A fragment of m16n8k16)" } as const;

function entry(matrices: 1 | 2 | 4, trans: boolean): WarpEntry {
  const name = `ldmatrix_x${matrices}${trans ? "_trans" : ""}` as LdmatrixOp;
  const lanes = 8 * matrices;
  return {
    name,
    doc: `${name}(arr, i): ${matrices === 1 ? "an 8×8 matrix" : `${matrices} 8×8 matrices`} of 16-bit elements from the shared u32 array arr, lane l naming row l mod 8 of matrix l/8 at word i (4 words, 16-byte aligned; lanes ${lanes}–31 name rows too, which are not read); ${RESULT[matrices]}: from each matrix the word at row l/4, column l mod 4${trans ? ", of the matrix transposed" : ""} (PTX ldmatrix${trans ? ".trans" : ""}). Every lane of a whole warp calls it together.`,
    rule: { kind: "warp", shape: "ldmatrix", params: ["arr", "i"], result: "operand" },
    js: { kind: "ldmatrix", compute: load(matrices, trans) },
  };
}

export const ldmatrixEntries: readonly WarpEntry[] = [entry(1, false), entry(2, false), entry(4, false), entry(1, true), entry(2, true), entry(4, true)];

/** The number of matrices an ldmatrix loads: 1, 2 or 4. */
export function ldmatrixCount(op: LdmatrixOp): 1 | 2 | 4 {
  return Number(op[10]) as 1 | 2 | 4;
}
