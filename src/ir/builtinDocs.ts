/** spec/builtins.md, rendered from the builtin table (a test keeps the file equal to this). */
import { builtins, operandTypes, type MathEntry } from "./builtins.js";
import { SHUFFLE_TYPES } from "./warpBuiltins.js";

export function renderBuiltinDocs(): string {
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
    if (b.rule.kind !== "warp") continue;
    const { shape, params, result } = b.rule;
    const types = shape === "shuffle" ? SHUFFLE_TYPES.join(" ") : shape === "vote" ? "bool" : "";
    out.push(`| \`${b.name}(${params.join(", ")})\` | ${types} | ${result === "operand" ? "the value's type" : result} | ${b.doc} |`);
  }
  out.push(
    "",
    "## Math",
    "",
    "All operands share one type; untyped constants take it. `ulp` is how far the GPU's and the",
    "simulator's results may differ, in units in the last place of the result type: the error",
    "CUDA documents for its implementation, plus the simulator's (JavaScript's Math functions are",
    "within 1 ulp in f64, and f32 results are computed in f64 and rounded once; gk's own erf and",
    "erfc are within 1 ulp in f64 below |x| = 4, and erfc within 4 beyond). 0 means exact: both are correctly rounded, so they agree bit for bit.",
    "",
    "| function | types | result | f32 ulp | f64 ulp | meaning |",
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const b of builtins) {
    if (b.rule.kind !== "math") continue;
    const m = b as MathEntry;
    const args = ["x", "y", "z"].slice(0, m.rule.arity).join(", ");
    const result = m.rule.result === "operand" ? "operand type" : m.rule.result;
    out.push(`| \`${m.name}(${args})\` | ${operandTypes(m.rule).join(" ")} | ${result} | ${m.ulp.f32} | ${m.ulp.f64} | ${m.doc} |`);
  }
  out.push("", "## Atomics", "", "`arr` is a global (non-readonly) or shared array, optionally partly indexed for a 2-D shared array (`atomicAdd(hist[row], col, 1)`).", "", "| call | element types | meaning |", "| --- | --- | --- |");
  for (const b of builtins) {
    if (b.rule.kind !== "atomic") continue;
    const args = b.rule.op === "cas" ? "arr, i, compare, v" : "arr, i, v";
    out.push(`| \`${b.name}(${args})\` | ${b.rule.types.join(" ")} | ${b.doc} |`);
  }
  out.push("", "## Conversions", "", "`bool(x)`, `i32(x)`, `u32(x)`, `i64(x)`, `u64(x)`, `f32(x)`, `f64(x)` convert any scalar; see language.md, Conversions.", "");
  return out.join("\n");
}
