#!/usr/bin/env node
// The shape of src/ read from its imports: files and lines per top-level folder, the stage
// of every file (the order below), the imports that run up from a lower stage to a higher
// one, the circles (strongly connected components) between folders and between stages,
// and whether the IR or the checker imports a code generator.
//
//   node scripts/import-graph.mjs [--list] [--src DIR]
//     --list prints every upward import; --src measures another tree's src/ (an old commit's:
//     git archive <commit> src | tar -x -C /tmp/old, then --src /tmp/old/src)
//
// Specifiers are read with a regular expression (static `import`/`export … from`, bare
// `import "…"` and `import("…")`), type-only imports included: they tie the files together
// just the same. Only relative specifiers inside src/ count.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = process.argv.includes("--src") ? resolve(process.argv[process.argv.indexOf("--src") + 1]) : join(ROOT, "src");

/**
 * The stages, lowest first; imports should only point down (to a lower or the same rank).
 * Each file takes the stage of the first rule whose path prefix it starts with, so the old
 * layout (the checker in src/ir/check, the build in src/runtime, src/backends) and the new
 * one (src/check, src/build, src/codegen) are measured by the same order.
 *   diagnostics   the coded messages, spans, shared helpers (util.ts), the cache folder (cacheFolder.ts),
 *                 the status line (progress.ts), the checked reader of files (regularFile.ts)
 *   ir            nodes, types, the builtin table, walker, passes, printer, evalOp
 *   parser/tsfront  the two front ends, source → AST
 *   load          front end by extension, imports, gk/std paths
 *   check         AST → typed IR
 *   codegen       IR → CUDA C++ / JavaScript (the simulator's code), each with its target record
 *   pipeline      the named steps (load → check → passes → legalize for a target): the driver
 *                 of the stages below it, so it may name a code generator's target record
 *   build         nvcc, the kernel cache, process groups
 *   runtime       devices, engines, the launcher client, the simulator, the API
 *   lang/modules/testing  what user code imports: kernel(), the loader hook, gk/testing
 *   cli           gkc
 *   index         the package's entry
 */
const STAGES = [
  ["diagnostics", 0, ["diagnostics/", "util.ts", "cacheFolder.ts", "progress.ts", "regularFile.ts"]],
  ["check", 4, ["ir/check/", "check/"]],
  ["ir", 1, ["ir/"]],
  ["parser", 2, ["parser/"]],
  ["tsfront", 2, ["tsfront/"]],
  ["load", 3, ["load/"]],
  ["codegen", 5, ["backends/", "codegen/"]],
  ["pipeline", 6, ["pipeline.ts"]],
  ["build", 7, ["build/", "runtime/cache/", "runtime/cache.ts", "runtime/build.ts", "runtime/nvcc.ts", "runtime/nvccFolders.ts", "runtime/processGroup.ts"]],
  ["runtime", 8, ["runtime/"]],
  ["lang", 9, ["lang/"]],
  ["modules", 9, ["modules/"]],
  ["testing", 9, ["testing/"]],
  ["cli", 10, ["cli/"]],
  ["index", 11, ["index.ts"]],
];

function stageOf(rel) {
  for (const [name, rank, prefixes] of STAGES) if (prefixes.some((p) => rel === p || rel.startsWith(p))) return { name, rank };
  throw new Error(`no stage for src/${rel}: add it to STAGES in scripts/import-graph.mjs`);
}

function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (e.endsWith(".ts")) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:\bimport|\bexport)\s+(?:type\s+)?(?:[\w*${},\s]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function resolveSpecifier(from, spec) {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec);
  for (const c of [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")]) if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
}

const files = walk(SRC);
const rel = (p) => relative(SRC, p).split("\\").join("/");
// A file directly in src/ (util.ts, pipeline.ts, index.ts) is a node of its own: they are
// different stages, and one "." node would tie them into a circle that is not there.
const folderOf = (r) => (r.includes("/") ? r.slice(0, r.lastIndexOf("/")) : r);
const topOf = (r) => (r.includes("/") ? r.slice(0, r.indexOf("/")) : ".");

const edges = []; // { from, to } relative paths
const lines = new Map();
for (const f of files) {
  const text = readFileSync(f, "utf8");
  lines.set(rel(f), text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
  const seen = new Set();
  for (const m of text.matchAll(SPECIFIER)) {
    const target = resolveSpecifier(f, m[1] ?? m[2]);
    if (!target || seen.has(target)) continue;
    seen.add(target);
    edges.push({ from: rel(f), to: rel(target) });
  }
}

// Files and lines per top-level folder.
const perTop = new Map();
for (const [r, n] of lines) {
  const t = topOf(r);
  const e = perTop.get(t) ?? { files: 0, lines: 0 };
  e.files++;
  e.lines += n;
  perTop.set(t, e);
}
console.log("files and lines per top-level folder of src/ ('.' = files directly in src/):");
let total = { files: 0, lines: 0 };
for (const [t, e] of [...perTop].sort((a, b) => a[0].localeCompare(b[0]))) {
  console.log(`  ${t.padEnd(12)} ${String(e.files).padStart(4)} files ${String(e.lines).padStart(7)} lines`);
  total = { files: total.files + e.files, lines: total.lines + e.lines };
}
console.log(`  ${"total".padEnd(12)} ${String(total.files).padStart(4)} files ${String(total.lines).padStart(7)} lines`);

// Upward imports.
const upward = edges.filter((e) => stageOf(e.from).rank < stageOf(e.to).rank);
const byPair = new Map();
for (const e of upward) {
  const k = `${stageOf(e.from).name} -> ${stageOf(e.to).name}`;
  byPair.set(k, (byPair.get(k) ?? 0) + 1);
}
console.log(`\nimports from a lower stage to a higher one: ${upward.length} (of ${edges.length} imports between files of src/)`);
for (const [k, n] of [...byPair].sort()) console.log(`  ${k}: ${n}`);
if (process.argv.includes("--list")) for (const e of upward) console.log(`    ${e.from} -> ${e.to}`);

// Strongly connected components (Tarjan), on a graph of string nodes.
function sccs(nodes, succ) {
  let index = 0;
  const idx = new Map(), low = new Map(), on = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of succ.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => b.length - a.length);
}

function graphOf(key) {
  const succ = new Map();
  const nodes = new Set();
  for (const e of edges) {
    const a = key(e.from), b = key(e.to);
    nodes.add(a).add(b);
    if (a === b) continue;
    if (!succ.has(a)) succ.set(a, new Set());
    succ.get(a).add(b);
  }
  return sccs([...nodes].sort(), succ);
}

const report = (title, cs) => {
  console.log(`\n${title}: ${cs.length}`);
  for (const c of cs) console.log(`  (${c.length}) ${c.join(", ")}`);
};
report("circles between top-level folders of src/ (each file directly in src/ a node of its own)", graphOf((r) => (r.includes("/") ? topOf(r) : r)));
report("circles between folders (each folder of src/, and each file directly in it, a node)", graphOf(folderOf));
report("circles between stages", graphOf((r) => stageOf(r).name));
const fileCircles = graphOf((r) => r);
console.log(`\ncircles between files: ${fileCircles.length}; files in them: ${fileCircles.reduce((n, c) => n + c.length, 0)}; the largest: ${fileCircles[0]?.length ?? 0} files`);

// The IR and the checker must not know a code generator.
const intoCodegen = edges.filter((e) => ["ir", "check"].includes(stageOf(e.from).name) && stageOf(e.to).name === "codegen");
console.log(`\nimports of a code generator from the IR or the checker: ${intoCodegen.length}`);
for (const e of intoCodegen) console.log(`  ${e.from} -> ${e.to}`);
