/**
 * The warp operations of the builtin table (src/ir/builtins.ts): shuffles, votes, matches and
 * `syncWarp`. A warp is 32 consecutive threads of a block in linear order (x fastest); the
 * last warp of a block whose size is not a multiple of 32 has fewer. Every thread of a warp
 * takes part in each warp operation (the CUDA column, src/codegen/cuda/builtins.ts, passes the
 * mask of the warp's threads); the simulator gathers the warp's threads at the operation and
 * applies `js` (src/runtime/sim/warps.ts).
 *
 * A shuffle's lane operand is taken modulo 32 (its low five bits, as PTX's `shfl.sync` reads
 * it).
 */
import type { ScalarName } from "./types.js";
import type { WarpEntry } from "./builtins.js";

/** The types a shuffle moves. */
export const SHUFFLE_TYPES: readonly ScalarName[] = ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64"];

/** The types `matchAny` and `matchAll` compare (every integer type; values are compared as they are, bit for bit). */
export const MATCH_TYPES: readonly ScalarName[] = ["i32", "u32", "i64", "u64"];

export const warpEntries: readonly WarpEntry[] = [
  {
    name: "shfl",
    doc: "v of lane srcLane mod 32 (CUDA __shfl_sync). In a partial warp, reading a lane that does not exist is an error the simulator reports (GK8015).",
    rule: { kind: "warp", shape: "shuffle", params: ["v", "srcLane"], result: "operand" },
    js: { kind: "shuffle", source: (_lane, operand) => operand & 31 },
  },
  {
    name: "shflUp",
    doc: "v of lane laneId - (delta mod 32), or its own v where that is below 0 (CUDA __shfl_up_sync).",
    rule: { kind: "warp", shape: "shuffle", params: ["v", "delta"], result: "operand" },
    js: {
      kind: "shuffle",
      source: (lane, operand) => {
        const j = lane - (operand & 31);
        return j < 0 ? lane : j;
      },
    },
  },
  {
    name: "shflDown",
    doc: "v of lane laneId + (delta mod 32), or its own v where that lane does not exist: past 31, or past the last thread of a partial warp (CUDA __shfl_down_sync).",
    rule: { kind: "warp", shape: "shuffle", params: ["v", "delta"], result: "operand" },
    js: {
      kind: "shuffle",
      source: (lane, operand, size) => {
        const j = lane + (operand & 31);
        return j >= size ? lane : j;
      },
    },
  },
  {
    name: "shflXor",
    doc: "v of lane laneId ^ (laneMask mod 32) (CUDA __shfl_xor_sync). In a partial warp, reading a lane that does not exist is an error the simulator reports (GK8015).",
    rule: { kind: "warp", shape: "shuffle", params: ["v", "laneMask"], result: "operand" },
    js: { kind: "shuffle", source: (lane, operand) => lane ^ (operand & 31) },
  },
  {
    name: "ballot",
    doc: "A u32 whose bit k is set when lane k's pred is true; bits of lanes that do not exist are 0 (CUDA __ballot_sync).",
    rule: { kind: "warp", shape: "vote", params: ["pred"], result: "u32" },
    js: { kind: "vote", combine: (preds) => preds.reduce((m, p, k) => (p ? m | (1 << k) : m), 0) >>> 0 },
  },
  {
    name: "anyLane",
    doc: "True when pred is true in some thread of the warp (CUDA __any_sync).",
    rule: { kind: "warp", shape: "vote", params: ["pred"], result: "bool" },
    js: { kind: "vote", combine: (preds) => preds.some((p) => p) },
  },
  {
    name: "allLanes",
    doc: "True when pred is true in every thread of the warp (CUDA __all_sync).",
    rule: { kind: "warp", shape: "vote", params: ["pred"], result: "bool" },
    js: { kind: "vote", combine: (preds) => preds.every((p) => p) },
  },
  {
    name: "matchAny",
    doc: "A u32 whose bit k is set when lane k's v equals this thread's v; bits of lanes that do not exist are 0 (CUDA __match_any_sync).",
    rule: { kind: "warp", shape: "match", params: ["v"], result: "u32" },
    js: { kind: "match", result: (values, lane) => values.reduce<number>((m, x, k) => (x === values[lane] ? m | (1 << k) : m), 0) >>> 0 },
  },
  {
    name: "matchAll",
    doc: "True when every thread of the warp holds the same v (CUDA __match_all_sync).",
    rule: { kind: "warp", shape: "match", params: ["v"], result: "bool" },
    js: { kind: "match", result: (values) => values.every((x) => x === values[0]) },
  },
  {
    name: "syncWarp",
    doc: "A statement: waits until every thread of the warp has reached it; what a thread of the warp wrote to memory before it, the others read after it (CUDA __syncwarp).",
    rule: { kind: "warp", shape: "sync", params: [], result: "void" },
    js: { kind: "sync" },
  },
];
