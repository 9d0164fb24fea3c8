/**
 * spec/builtins.md, rendered from the builtin table (a test keeps the file equal to this). The
 * fast intrinsics' table names the CUDA function each one is: `cudaFunction` (from the CUDA
 * column, src/codegen/cuda/builtins.ts) says which, so the IR does not read a backend.
 */
import { builtins, operandTypes, type MathEntry, type VectorEntry, type VectorMemoryEntry } from "./builtins.js";
import { SCALAR_NAMES, typeToString, type VectorType } from "./types.js";
import { MATCH_TYPES, SHUFFLE_TYPES } from "./warpBuiltins.js";

export function renderBuiltinDocs(cudaFunction: (builtin: string) => string | undefined): string {
  const out: string[] = [
    "# gk builtins",
    "",
    "Generated from `src/ir/builtins.ts` (the table the checker, the CUDA backend and the",
    "simulator all read); `npm test` fails when this file is out of date, and",
    "`npx vitest run test/ir/builtinDocs.test.ts -u` rewrites it.",
    "",
    "## Thread indices",
    "",
    "| name | meaning |",
    "| --- | --- |",
  ];
  for (const b of builtins) if (b.rule.kind === "index") out.push(`| ${b.rule.axes ? `\`${b.name}.x\` \`.y\` \`.z\`` : `\`${b.name}\``} | ${b.doc} |`);
  out.push("", "## Constants", "", "| name | type | meaning |", "| --- | --- | --- |");
  for (const b of builtins) if (b.rule.kind === "constant" && b.name !== "warpSize") out.push(`| \`${b.name}\` | ${b.rule.type === "float" ? "f32 or f64, from the context" : b.rule.type} | ${b.doc} |`);
  out.push("", "## Synchronization", "", "| call | meaning |", "| --- | --- |");
  for (const b of builtins) if (b.rule.kind === "sync") out.push(`| \`${b.name}()\` | ${b.doc} |`);
  out.push(
    "",
    "## Warps",
    "",
    "A warp is 32 consecutive threads of a block in linear order (x fastest); the last warp of a block whose",
    "size is not a multiple of 32 has fewer. Every thread of a warp must reach each warp operation together",
    "(language.md, Warps). A shuffle's lane operand may be of any integer type; only its value modulo 32",
    "(its low five bits) counts.",
    "",
    "| name | types | result | meaning |",
    "| --- | --- | --- | --- |",
  );
  for (const b of builtins) if (b.rule.kind === "constant" && b.name === "warpSize") out.push(`| \`${b.name}\` | | ${b.rule.type} | ${b.doc} |`);
  for (const b of builtins) {
    if (b.rule.kind !== "warp" || b.rule.shape === "mma" || b.rule.shape === "ldmatrix") continue;
    const { shape, params, result } = b.rule;
    const types = shape === "shuffle" ? SHUFFLE_TYPES.join(" ") : shape === "vote" ? "bool" : shape === "match" ? MATCH_TYPES.join(" ") : "";
    out.push(`| \`${b.name}(${params.join(", ")})\` | ${types} | ${result === "operand" ? "the value's type" : result} | ${b.doc} |`);
  }
  out.push(
    "",
    "## Tensor cores",
    "",
    "Warp-level matrix multiply-accumulate, D = A·B + C on one tile per warp (PTX `mma.sync.aligned`,",
    "NVIDIA sm_80 and later). Fragments are vectors of each lane's 32-bit registers; which tile element",
    "each lane holds, and the arithmetic (bit for bit the H200's), are in language.md, Tensor cores.",
    "",
    "| call | a | b | c and result | meaning |",
    "| --- | --- | --- | --- | --- |",
  );
  for (const b of builtins) {
    if (b.rule.kind !== "warp" || b.rule.shape !== "mma") continue;
    const sigs = b.rule.mma!.signatures;
    const col = (f: (s: (typeof sigs)[number]) => VectorType) => [...new Set(sigs.map((s) => typeToString(f(s))))].join(" or ");
    out.push(`| \`${b.name}(a, b, c)\` | ${col((s) => s.a)} | ${col((s) => s.b)} | ${col((s) => s.c)} | ${b.doc} |`);
  }
  out.push("", "| load | result | meaning |", "| --- | --- | --- |");
  for (const b of builtins) {
    if (b.rule.kind !== "warp" || b.rule.shape !== "ldmatrix") continue;
    const n = b.name[10];
    out.push(`| \`${b.name}(arr, i)\` | ${n === "1" ? "u32" : `u32x${n}`} | ${b.doc} |`);
  }
  out.push(
    "",
    "## Asynchronous copies",
    "",
    "Global → shared copies that a thread starts and waits for later (PTX `cp.async`, NVIDIA sm_80 and later),",
    "so that the next tile loads while this one is used. Each is a statement. `dst` is a fixed-size shared array,",
    "optionally partly indexed (`cpAsync(tile[row], col, A, i, 16)`), `src` a global array of the same scalar",
    "type; each index must be a multiple of the elements a copy moves (the GPU needs both addresses aligned to",
    "its size: GK8030 on the simulator), and the elements must be in bounds (GK8001; with `valid`, the `valid`",
    "elements read). A copy's destination holds the data only once the copying thread has waited for it",
    "(`cpAsyncCommit()` closes its copies into a group, `cpAsyncWait(n)` waits for all but its `n` most recent",
    "groups); other threads see the data after that wait and a `barrier()` (within the copying thread's warp,",
    "after a `syncWarp()`). The simulator checks this exactly: a read of a destination before then is GK8050, a",
    "write GK8051, a copy never waited for when its thread ends GK8052, a `valid` outside 0 to the elements",
    "copied GK8053. A copy may read its source at any moment up to the wait (the simulator reads it when the",
    "copy starts), so a write of a pending copy's source is GK8051 too.",
    "",
    "| call | meaning |",
    "| --- | --- |",
  );
  for (const b of builtins) {
    if (b.rule.kind !== "asyncCopy") continue;
    const op = b.rule.op;
    const args = op === "copy" ? "dst, di, src, si, bytes[, valid]" : op === "copyL2" ? "dst, di, src, si, 16[, valid]" : op === "wait" ? "n" : "";
    out.push(`| \`${b.name}(${args})\` | ${b.doc} |`);
  }
  out.push(
    "",
    "## Math",
    "",
    "All operands share one type; untyped constants take it. Every math function also works lane by lane",
    "on vectors of the types it takes (`sqrt(v)` for `v: f32x4`), a scalar operand of the lane type standing",
    "for a vector of that value (`clamp(v, 0.0, 1.0)`); a result of bool or i32 is then a vector of them. `ulp` is how far the GPU's and the",
    "simulator's results may differ, in units in the last place of the result type: the error",
    "CUDA documents for its implementation, plus the simulator's (JavaScript's Math functions are",
    "within 1 ulp in f64, and f32 results are computed in f64 and rounded once; gk's own erf and",
    "erfc are within 1 ulp in f64 below |x| = 4, and erfc within 4 beyond). 0 means exact: both are correctly rounded, so they agree bit for bit.",
    "",
    "On f16 and bf16 the simulator computes in f64 and rounds once to the type. On the GPU, f16",
    "`exp exp2 log log2 log10 sin cos rsqrt` are CUDA's half-precision intrinsics (`hexp` ...), which",
    "compute through approximate f32 hardware instructions and round to f16; every other function,",
    "and every function on bf16, is the f32 function above on the operands converted exactly, its",
    "result rounded once to the type. Either is within 1 ulp of the half result, so the half columns",
    "say 1 for the inexact functions; the exact ones (`sqrt`, the roundings, `fma`, `min` ...) agree",
    "bit for bit. The small integers (i8 u8 i16 u16) are computed as in i32 and wrapped back (abs of",
    "-128 is -128); `popcount` and `clz` count in the operand's own width.",
    "",
    "| function | types | result | f32 ulp | f64 ulp | f16 ulp | bf16 ulp | meaning |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const b of builtins) {
    if (b.rule.kind !== "math" || (b as MathEntry).fast) continue;
    const m = b as MathEntry;
    const args = ["x", "y", "z"].slice(0, m.rule.arity).join(", ");
    const result = m.rule.result === "operand" ? "operand type" : m.rule.result;
    const half = (t: "f16" | "bf16") => (operandTypes(m.rule).includes(t) ? String(m.ulp[t]) : "");
    out.push(`| \`${m.name}(${args})\` | ${operandTypes(m.rule).join(" ")} | ${result} | ${m.ulp.f32} | ${m.ulp.f64} | ${half("f16")} | ${half("bf16")} | ${m.doc} |`);
  }
  out.push(
    "",
    "## Vectors",
    "",
    "Each is defined by the scalar operations it is made of (src/ir/vectorBuiltins.ts), which the GPU and the",
    "simulator both perform in the order given, so they agree bit for bit where those operations do (with FMA",
    "contraction off: language.md, Semantics).",
    "",
    "| function | operands | result | meaning |",
    "| --- | --- | --- | --- |",
  );
  const vectorOperands = { float: "float vectors of one type", float3: "3-lane float vectors of one type", bool: "a bool vector", select: "c: bool or a bool vector; a, b: one type" } as const;
  for (const b of builtins) {
    if (b.rule.kind !== "vector") continue;
    const v = b as VectorEntry;
    const result = v.rule.result === "lane" ? "the lane type" : v.rule.result === "operand" ? "the operands' type" : "bool";
    out.push(`| \`${v.name}(${v.rule.params.join(", ")})\` | ${vectorOperands[v.rule.operands]} | ${result} | ${v.doc} |`);
  }
  out.push(
    "",
    "## Vector loads and stores",
    "",
    "`arr` is an array of scalars: global, shared or local, optionally partly indexed (`load4(tile[row], col)`);",
    "the result is a vector of its element type. The array is aligned for the access (language.md, Memory layout).",
    "",
    "| call | meaning |",
    "| --- | --- |",
  );
  for (const b of builtins) if (b.rule.kind === "vectorMemory") out.push(`| \`${b.name}(${b.rule.op === "load" ? "arr, i" : "arr, i, v"})\` | ${(b as VectorMemoryEntry).doc} |`);
  out.push(
    "",
    "## Cache hints",
    "",
    "Loads and stores of a global array that tell the GPU's caches how the data is used (language.md, Cache hints): `arr` names",
    "an element as for `load4`; the 2- and 4-lane forms move that many consecutive scalars as a vector. A hint never changes the",
    "result: the simulator, and a target without the hint, do a plain access.",
    "",
    "| call | meaning |",
    "| --- | --- |",
  );
  for (const b of builtins) if (b.rule.kind === "cacheHint") out.push(`| \`${b.name}(${b.rule.op === "load" ? "arr, i" : "arr, i, v"})\` | ${b.doc} |`);
  out.push(
    "",
    "## Fast math",
    "",
    "CUDA's fast intrinsics, for f32: one or a few approximate instructions instead of a",
    "correctly rounded routine. The bound is CUDA's (CUDA C++ Programming Guide, \"Intrinsic",
    "Functions\"; for `fastTan` and `fastPow`, which CUDA defines by their implementation, gk's",
    "bound derived from the bounds of the parts; ±3.1415925 is the f32 just below π). The",
    "simulator computes the function itself,",
    "rounded once: within the bound of the GPU's result wherever the bound holds. The tests",
    "compare GPU and simulator over the operand ranges listed, within the tolerance listed (the",
    "bound plus the simulator's own rounding); outside them the two may differ by more. No",
    "option turns every function into its fast form (nvcc's `--use_fast_math`): write these",
    "where you want them. Flushing subnormals to zero is the module option `@flushToZero;`",
    "(language.md).",
    "",
    "| function | CUDA | error bound | tested operands → tolerance | meaning |",
    "| --- | --- | --- | --- | --- |",
  );
  for (const b of builtins) {
    const m = b as MathEntry;
    if (b.rule.kind !== "math" || !m.fast) continue;
    const args = ["x", "y"].slice(0, m.rule.arity).join(", ");
    const cuda = cudaFunction(m.name);
    const regions = m.fast.regions.map((r) => `${r.operands.map((o) => `[${o.map(num).join(", ")}]`).join(" × ")} → ${tolerance(r.tolerance)}`).join("; ");
    const outside = m.fast.outside ? ` Outside: ${m.fast.outside}.` : "";
    out.push(`| \`${m.name}(${args})\` | ${cuda ? `\`${cuda}\`` : ""} | ${m.fast.bound} | ${regions} | ${m.doc}${outside} |`);
  }
  out.push(
    "",
    "## Memory ordering",
    "",
    "Fences, and loads and stores of one element of global or shared memory (`arr, i`, as for",
    "atomics) with an ordering; what each guarantees is the memory model of language.md. The",
    "simulator runs one access at a time, in one order every thread sees, so it cannot show the",
    "weaker orderings a GPU allows: a kernel that needs a fence may still compute the right",
    "result there.",
    "",
    "| call | element types | meaning |",
    "| --- | --- | --- |",
  );
  for (const b of builtins) {
    if (b.rule.kind !== "memory") continue;
    const op = b.rule.op;
    const args = op.startsWith("fence") ? "" : op.startsWith("load") ? "arr, i" : "arr, i, v";
    out.push(`| \`${b.name}(${args})\` | ${b.rule.types.join(" ")} | ${b.doc} |`);
  }
  out.push(
    "",
    "## Atomics",
    "",
    "`arr` is a global (non-readonly) or shared array, optionally partly indexed for a 2-D shared array (`atomicAdd(hist[row], col, 1)`), or a device function's `view<T>` parameter whose calls pass views of global or shared memory (`addByte(hist[warp], b)`; not f32 atomicAdd/atomicSub: language.md, Views).",
    "On the 1- and 2-byte types (i8 u8 i16 u16 f16 bf16) the GPU has atomic instructions only for f16 and bf16 `atomicAdd`/`atomicSub`",
    "and for `atomicCAS` on 2-byte elements: gk's CUDA applies every other operation in a loop of `atomicCAS`, on the element itself",
    "(2 bytes) or on the aligned 32-bit word that holds it (1 byte), which changes only that element and is as atomic as the others (slower under heavy contention).",
    "`atomicAdd` also adds an f16x2 or bf16x2 element (`atomicAdd(acc, i, f16x2(a, b))`), in one instruction (PTX `atom.add.noftz.f16x2`, `.bf16x2`): each lane",
    "as the scalar f16 or bf16 atomicAdd adds it (rounded to nearest even, subnormals kept), each lane atomic on its own, so under contention the old vector's lanes",
    "may come from different moments. No other atomic takes a vector (GK3017).",
    "",
    "| call | element types | meaning |",
    "| --- | --- | --- |",
  );
  for (const b of builtins) {
    if (b.rule.kind !== "atomic") continue;
    const args = b.rule.op === "cas" ? "arr, i, compare, v" : "arr, i, v";
    out.push(`| \`${b.name}(${args})\` | ${[...b.rule.types, ...(b.rule.vectors ?? [])].join(" ")} | ${b.doc} |`);
  }
  out.push(
    "",
    "## Conversions and constructors",
    "",
    `${SCALAR_NAMES.map((n) => `\`${n}(x)\``).join(", ")} convert any scalar; see language.md, Conversions.`,
    "`bitcast<T>(v)` reads the bits of a number or vector of numbers as a T of as many bits (`bitcast<u32>(x)`, `bitcast<f16x2>(w)`); see language.md, Bit reinterpretation.",
    "`f32x4(...)` and every other vector type make a vector: from one value per lane, from one value for every lane,",
    "from values and vectors of the lane type whose lanes add up, or by converting a vector of as many lanes lane by lane;",
    "see language.md, Vectors.",
    "",
  );
  return out.join("\n");
}

/** A range bound as the tables print it: π-based ones by name, others as numbers. */
function num(x: number): string {
  return Number.isInteger(x) || Math.abs(x) >= 1e4 || Math.abs(x) < 1e-4 ? String(x) : x.toPrecision(8).replace(/0+$/, "");
}

function tolerance(t: { readonly ulp?: number; readonly abs?: number }): string {
  if (t.ulp !== undefined) return `${t.ulp} ulp`;
  const log = Math.log2(t.abs!);
  return `abs ${t.abs!.toPrecision(3)} (2^${log.toFixed(2)})`;
}
