/**
 * The memory-ordering operations of the builtin table (src/ir/builtins.ts): fences, and loads
 * and stores of one element of global or shared memory with an ordering. Their meaning is the
 * memory model of spec/language.md; the simulator runs every access in one order that all
 * threads see (it is sequentially consistent), so for it these are plain accesses, while CUDA
 * gets the instructions that give the model's guarantees on the GPU:
 *
 * - `threadfenceBlock()`, `threadfence()`: CUDA's `__threadfence_block()` and `__threadfence()`;
 * - `loadAcquire(a, i)` / `storeRelease(a, i, v)`: PTX `ld.acquire.gpu` / `st.release.gpu` on the
 *   element's address (a prelude helper per width, src/codegen/cuda/orderedHelpers.ts);
 * - `loadVolatile(a, i)` / `storeVolatile(a, i, v)`: a C++ volatile access (PTX `ld.volatile`,
 *   `st.volatile`, through prelude helpers): performed each time it runs, never merged or cached
 *   in a register.
 *
 * Like atomics they name an element as `a, i` (`loadAcquire(flags, b)`), a 2-D shared array
 * partly indexed (`loadVolatile(t[r], c)`).
 */
import type { MemoryEntry } from "./builtins.js";
import type { ScalarName } from "./types.js";

/** Element types of acquire and release accesses: the 32- and 64-bit ones. */
export const ORDERED_TYPES: readonly ScalarName[] = ["i32", "u32", "i64", "u64", "f32", "f64"];

/** Element types of volatile accesses: every scalar. */
export const VOLATILE_TYPES: readonly ScalarName[] = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"];

export const memoryEntries: readonly MemoryEntry[] = [
  {
    name: "threadfenceBlock",
    doc: "threadfenceBlock(): a statement; what this thread wrote before it, every thread of its block sees before what it writes after it (CUDA __threadfence_block).",
    rule: { kind: "memory", op: "fenceBlock", types: [] },
  },
  {
    name: "threadfence",
    doc: "threadfence(): a statement; what this thread wrote before it, every thread of the device sees before what it writes after it (CUDA __threadfence).",
    rule: { kind: "memory", op: "fenceDevice", types: [] },
  },
  {
    name: "loadAcquire",
    doc: "loadAcquire(arr, i): arr[i] (global or shared memory), read with acquire ordering at device scope: what the thread that stored it with storeRelease wrote before that store, this thread sees after this load.",
    rule: { kind: "memory", op: "loadAcquire", types: ORDERED_TYPES },
  },
  {
    name: "storeRelease",
    doc: "storeRelease(arr, i, v): a statement; arr[i] = v (global or shared memory) with release ordering at device scope: a thread that reads v with loadAcquire then sees everything this thread wrote before.",
    rule: { kind: "memory", op: "storeRelease", types: ORDERED_TYPES },
  },
  {
    name: "loadVolatile",
    doc: "loadVolatile(arr, i): arr[i] (global or shared memory), read from memory each time it runs, never from a copy the compiler kept (CUDA volatile): for waiting on a flag another thread sets.",
    rule: { kind: "memory", op: "loadVolatile", types: VOLATILE_TYPES },
  },
  {
    name: "storeVolatile",
    doc: "storeVolatile(arr, i, v): a statement; arr[i] = v (global or shared memory), written to memory when it runs (CUDA volatile); with threadfence() before it, a flag that publishes data.",
    rule: { kind: "memory", op: "storeVolatile", types: VOLATILE_TYPES },
  },
];
