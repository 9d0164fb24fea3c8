// The launch shapes of gk's device-wide scan and sort measured side by side on one GPU, with
// their peers in the same run (bench/peers/stdlib_peers.py: torch.cumsum, cupy.sort, and a
// device copy as the bandwidth ceiling), to choose the defaults of `Tuning`
// (src/runtime/stdlib/calls.ts). Each variant's result is checked against a reference computed
// here (integers bit for bit; f32 within 1e-5 of the largest prefix, against an f64 scan), its
// output poisoned first. gk's figure is its kernel time (CUDA events summed over a call's
// launches), the median of ROUNDS rounds of REPS calls. Prints a table; writes JSON to
// $OUT/stdlib_tune.json (else bench/results/stdlib_tune.json).
//
//   npm run build && node bench/stdlib_tune.mjs [scan|sort]...
// GK_STDLIB_BENCH_SMOKE=1 runs it on the simulator at 2^12 without peers (checks the bench only).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDevice, stdlib } from "../dist/index.js";
import { ROOT, RESULTS, median, table } from "./lib.mjs";
import { compareScan, hash, make, refScan, timeKernel as timeKernelRounds, timeLaunch as timeLaunchRounds } from "./stdlibLib.mjs";

const SMOKE = process.env.GK_STDLIB_BENCH_SMOKE === "1";
const N = SMOKE ? 1 << 12 : 1 << 26;
const SMALL = SMOKE ? [] : [1 << 16, 1 << 20];
const ROUNDS = SMOKE ? 1 : 5;
/** Kernel ms per call or launch, the median of ROUNDS rounds (bench/stdlibLib.mjs). */
const timeKernel = (gpu, mod, run, reps) => timeKernelRounds(gpu, mod, run, reps, ROUNDS);
const timeLaunch = (gpu, launch, reps) => timeLaunchRounds(gpu, launch, reps, ROUNDS);
const repsFor = (n) => (SMOKE ? 1 : n <= 1 << 16 ? 100 : n <= 1 << 20 ? 40 : 10);
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ["scan", "sort"];

/**
 * The scan's variants side by side: the host call (std.scan: gk/std/scan's scanPacked for these
 * types, at Tuning.scan's shape for the size), scanPacked at other shapes, and
 * bench/scan_packed.gk's scanStaged (part of each tile in shared memory) at tile shapes: block x
 * (register items + shared items), MINB blocks a multiprocessor, w: look-back windows. Every
 * result is checked on the GPU (countMismatches) against a reference computed here, its output
 * poisoned first.
 */
async function benchScan(gpu, std, mod, rows) {
  const V = await gpu.compileSource(readFileSync(join(ROOT, "bench", "scan_packed.gk"), "utf8"), { filename: join(ROOT, "bench", "scan_packed.gk") });
  const sizes = [...SMALL, N];
  // [kernel, block, items, shared items, minBlocks, look-back windows, status words a tile] at 2^26.
  const large = SMOKE
    ? [["packed", 64, 8, 0, 1, 1, 1], ["packed", 32, 4, 0, 1, 4, 16], ["staged", 64, 4, 8, 1, 2, 16], ["staged", 32, 8, 4, 1, 4, 3]]
    : [
        ["packed", 512, 32, 0, 2, 1, 1], ["packed", 512, 32, 0, 2, 1, 16], ["packed", 1024, 32, 0, 1, 1, 16], ["packed", 512, 32, 0, 2, 2, 16],
        ["staged", 512, 16, 32, 2, 1, 16], ["staged", 512, 16, 48, 2, 1, 16], ["staged", 256, 16, 48, 4, 1, 16],
      ];
  const minTile = Math.min(...large.map(([, b, i, si]) => b * (i + si)));
  const words = await gpu.zeros("u64", Math.ceil(N / minTile) * 16);
  const ticket = await gpu.zeros("u32", 1);
  let epoch = 0, issued = 0;
  const instance = (elem, [kind, block, items, sitems, minb, look, stride]) =>
    kind === "packed"
      ? mod.mod.scanPacked.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: false, MINB: minb, LOOK: look, STRIDE: stride })
      : V.scanStaged.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, SITEMS: sitems, EXCLUSIVE: false, MINB: minb, LOOK: look, STRIDE: stride });
  /** A launch of variant v on x -> y of n elements; with `own`, a ticket of its own (0, for a launch that may run in any order). */
  const launcher = (elem, v, n, x, y, own) => {
    const [, block, items, sitems] = v;
    const k = instance(elem, v);
    const tiles = Math.ceil(n / (block * (items + sitems)));
    return (kernelTime) => {
      const ticketBase = own ? 0 : issued;
      if (!own) issued = (issued + tiles) >>> 0;
      return k({ grid: tiles, block, ...(kernelTime && { kernelTime }) }, { n, x, y, words, ticket: own ?? ticket, epoch: ++epoch, ticketBase });
    };
  };
  const name = ([kind, block, items, sitems, minb, look, stride]) => `${kind} ${block}x${sitems ? `(${items}+${sitems})` : items} m${minb} w${look} s${stride}`;
  // Every instance of both types built at once (the builds run in parallel), each run once on a small array.
  const warm = [];
  for (const elem of ["f32", "i32"]) {
    const [xw, yw] = [await gpu.zeros(elem, 1 << 12), await gpu.zeros(elem, 1 << 12)];
    warm.push(xw, yw);
    for (const v of large) {
      const own = await gpu.zeros("u32", 1);
      warm.push(own, launcher(elem, v, 1 << 12, xw, yw, own)());
    }
  }
  await Promise.all(warm);
  await gpu.sync();
  for (const a of warm) if (typeof a?.free === "function") a.free();
  const data = {
    f32: make(Float32Array, N, (i) => (hash(i) >>> 8) / 2 ** 24),
    i32: make(Int32Array, N, (i) => (hash(i) % 2001) - 1000),
  };
  for (const elem of ["f32", "i32"]) {
    const ref = refScan(data[elem], false);
    const x = await gpu.array(data[elem]);
    const y = await gpu.zeros(elem, N);
    const expected = await gpu.array(elem === "f32" ? new Float32Array(ref) : new Int32Array(ref));
    /** "ok", or how many elements of y[0..n) differ from the reference (by more than tol), and the first. */
    const check = async (n, ys, tol) => {
      const bad = await gpu.array(Uint32Array.of(0, n));
      await V.countMismatches.with({ T: elem })({ grid: Math.min(1024, Math.ceil(n / 256)), block: 256 }, { n, y: ys, expected, tol, bad });
      const [count, first] = await bad.read();
      bad.free();
      return count === 0 ? "ok" : `${count} wrong, first ${first}`;
    };
    for (const n of sizes) {
      const xs = n === N ? x : x.view(0, n);
      const ys = n === N ? y : y.view(0, n);
      const tol = elem === "f32" ? 1e-5 * Math.max(1, Math.abs(ref[n - 1])) : 0;
      const measure = async (variant, launch, time = () => timeLaunch(gpu, launch, repsFor(n))) => {
        const ms = await time();
        await ys.fill(-7);
        await launch();
        rows.push({ part: "scan", what: `scan ${elem}`, variant, size: n, ms, gbs: (8 * n) / ms / 1e6, check: await check(n, ys, tol) });
      };
      const library = () => std.scan(xs, { out: ys });
      const shape = std.tuning.scan.find((s) => n < s.below);
      await measure(`std.scan (${shape.block}x${shape.items} m${shape.minBlocks} w${shape.windows} s${shape.stride})`, library, () => timeKernel(gpu, mod, library, repsFor(n)));
      if (n === N) for (const v of large) await measure(name(v), launcher(elem, v, n, xs, ys));
    }
    const ms = await timeKernel(gpu, mod, () => std.scan(x, { out: y, exclusive: true }), repsFor(N));
    await y.fill(-7);
    await std.scan(x, { out: y, exclusive: true });
    const excl = refScan(data[elem], true);
    const exp2 = await gpu.array(elem === "f32" ? new Float32Array(excl) : new Int32Array(excl));
    const bad = await gpu.array(Uint32Array.of(0, N));
    await V.countMismatches.with({ T: elem })({ grid: 1024, block: 256 }, { n: N, y, expected: exp2, tol: elem === "f32" ? 1e-5 * Math.abs(excl[N - 1]) : 0, bad });
    const [count, first] = await bad.read();
    rows.push({ part: "scan", what: `scan ${elem}`, variant: "std.scan exclusive", size: N, ms, gbs: (8 * N) / ms / 1e6, check: count === 0 ? "ok" : `${count} wrong, first ${first}` });
    for (const a of [x, y, expected, exp2, bad]) a.free();
  }
  for (const a of [words, ticket]) a.free();
}

/** Runs fn with the module's sort kernels taken from `source` (a variant of stdlib/sort.gk), then puts the library's back. */
async function withSortKernels(gpu, mod, source, fn) {
  const variant = await gpu.compileSource(source, { filename: join(ROOT, "stdlib", "sort-variant-bench.gk") });
  const original = mod.mod;
  mod.mod = { ...original, radixHistogram: variant.radixHistogram, radixOnesweep: variant.radixOnesweep };
  mod.instances.clear();
  try {
    return await fn();
  } finally {
    mod.mod = original;
    mod.instances.clear();
  }
}

/** "ok" when `out` is `input` in ascending order (non-decreasing, and the same keys by two fingerprints), else what is wrong. */
function checkSorted(out, input) {
  if (out.length !== input.length) return `length ${out.length}, expected ${input.length}`;
  for (let i = 1; i < out.length; i++) if (out[i] < out[i - 1]) return `element ${i}: ${out[i]} after ${out[i - 1]}`;
  if (!prints.has(input)) prints.set(input, fingerprint(input));
  return fingerprint(out) === prints.get(input) ? "ok" : "not the same keys";
}
/** The inputs' fingerprints, computed once each. */
const prints = new WeakMap();
/** Two order-independent hashes of the keys (floats by their bits), in i32 arithmetic (fast at 2^26). */
function fingerprint(keys) {
  const a = keys instanceof Float32Array ? new Uint32Array(keys.buffer, keys.byteOffset, keys.length) : keys;
  const wide = a instanceof BigUint64Array || a instanceof BigInt64Array;
  let sum = 0, mix = 0;
  for (let i = 0; i < a.length; i++) {
    const x = wide ? Number(a[i] & 0xffffffffn) ^ Math.imul(Number(a[i] >> 32n) | 0, 7919) : a[i] | 0;
    const h = Math.imul(x ^ (x >>> 13), 2654435761);
    sum = (sum + h) | 0;
    mix ^= Math.imul(h, 2246822519);
  }
  return `${sum >>> 0}/${mix >>> 0}`;
}

async function benchSort(gpu, std, mod, rows) {
  const keys = make(Uint32Array, N, (i) => hash(i * 3 + 1));
  const k = await gpu.array(keys);
  const library = readFileSync(join(ROOT, "stdlib", "sort.gk"), "utf8");
  const previous = readFileSync(join(ROOT, "bench", "sort_previous.gk"), "utf8");
  const onesweep = "export device_kernel radixOnesweep<";
  const sources = {
    library,
    // The kernel before the warps counted their digits first (bench/sort_previous.gk), and it with atomicOr matching.
    previous,
    previousMatchOr: previous
      .replace("  shared digitStart: u32[256];", "  shared warpLanes: u32[BLOCK / 32][256];\n  shared digitStart: u32[256];")
      .replace("    warpCounts[c / 256][c % 256] = u32(0);", "    warpCounts[c / 256][c % 256] = u32(0);\n    warpLanes[c / 256][c % 256] = u32(0);")
      .replace("    const peers = matchDigit(d);", "    atomicOr(warpLanes[w], i32(d), u32(1) << u32(lane));\n    syncWarp();\n    const peers = warpLanes[w][d];\n    syncWarp();")
      .replace("      warpCounts[w][d] = seen + u32(popcount(peers));", "      warpCounts[w][d] = seen + u32(popcount(peers));\n      warpLanes[w][d] = u32(0);"),
    // The look-back one earlier tile at a time.
    window1: library.replace("const WINDOW = 4;", "const WINDOW = 1;"),
    // The histogram's counts in a column per lane (bench/sort_hist_columns.gk).
    columns: readFileSync(join(ROOT, "bench", "sort_hist_columns.gk"), "utf8"),
    // Without the registers for three blocks of an SM.
    bounds2: library.replace(`@launchBounds(BLOCK, 3)\n${onesweep}`, onesweep),
  };
  for (const [name, src] of Object.entries(sources)) if ((name === "previousMatchOr" && src.split("warpLanes").length !== 6) || (!["library", "previous", "previousMatchOr", "columns"].includes(name) && src === library)) throw new Error(`bench/stdlib_tune.mjs: the ${name} variant no longer applies to stdlib/sort.gk`);
  // Most telling first (a run may be cut short). Batch 1 on the H200 (2026-11-29, with each count
  // right after its key's load, which serialized the loads): previous 1.96 ms, library 2.70,
  // matchOr 2.26, bounds3 2.23, 256 x 16 2.36, histogram columns -0.016, windows 1 and 8 within
  // 1.5%, matchAny 4.31 (384 x 20); cupy.sort 1.74.
  const variants = [
    { source: "previous", sortBlock: 512, sortItems: 12 },
    { source: "library", sortBlock: 512, sortItems: 12 },
    { source: "previousMatchOr", sortBlock: 512, sortItems: 12 },
    { source: "bounds2", sortBlock: 512, sortItems: 12 },
    { source: "library", sortBlock: 256, sortItems: 16 },
    { source: "columns", sortBlock: 512, sortItems: 12, sortHistBlock: 1024, sortHistBlocks: 132 },
    { source: "library", sortBlock: 512, sortItems: 14 },
    { source: "library", sortBlock: 384, sortItems: 20 },
    { source: "window1", sortBlock: 512, sortItems: 12 },
    { source: "library", sortBlock: 512, sortItems: 8 },
  ];
  const initial = { ...std.tuning };
  for (const { source, ...v } of variants) {
    Object.assign(std.tuning, v);
    try {
      await withSortKernels(gpu, mod, sources[source], async () => {
        const ms = await timeKernel(gpu, mod, async () => (await std.sort(k)).keys.free(), SMOKE ? 1 : 5);
        const r = await std.sort(k);
        const check = checkSorted(await r.keys.read(), keys);
        r.keys.free();
        rows.push({ part: "sort", what: "sort u32", variant: `${source} ${Object.entries(v).map(([a, b]) => `${a}=${b}`).join(" ")}`, size: N, ms, gkeys: N / ms / 1e6, check });
      });
    } catch (e) {
      rows.push({ part: "sort", what: "sort u32", variant: `${source} ${JSON.stringify(v)}`, size: N, ms: NaN, gkeys: NaN, check: `failed: ${String(e.message ?? e).split("\n")[0].slice(0, 160)}` });
    }
    Object.assign(std.tuning, initial);
  }
  // Tile shapes at the launch-bound sizes (fewer keys a tile: more blocks share a small sort).
  for (const n of SMALL) {
    const ks = await gpu.array(keys.subarray(0, n));
    for (const [block, items] of [[512, 12], [512, 4], [256, 4], [512, 6]]) {
      Object.assign(std.tuning, { sortSmall: { block, items, below: 2 ** 30 } });
      const ms = await timeKernel(gpu, mod, async () => (await std.sort(ks)).keys.free(), repsFor(n));
      const r = await std.sort(ks);
      const check = checkSorted(await r.keys.read(), keys.subarray(0, n));
      r.keys.free();
      rows.push({ part: "sort", what: "sort u32", variant: `library sortSmall ${block} x ${items}`, size: n, ms, gkeys: n / ms / 1e6, check });
    }
    Object.assign(std.tuning, initial);
    ks.free();
  }
  // Where the default sort's time goes: each launch's kernel time (the histogram, then each pass), the median of 5 sorts.
  {
    const per = [];
    for (let r = 0; r < 5; r++) {
      const times = [];
      mod.kernelTime = (t) => times.push(t);
      (await std.sort(k)).keys.free();
      await gpu.sync();
      mod.kernelTime = undefined;
      per.push(times);
    }
    const launches = per[0].map((_, i) => median(per.map((p) => p[i] ?? NaN)));
    rows.push({ part: "sort", what: "sort u32", variant: `launches: ${launches.map((t) => t.toFixed(3)).join(" + ")} ms`, size: N, ms: launches.reduce((a, b) => a + b, 0), gkeys: N / launches.reduce((a, b) => a + b, 0) / 1e6, check: "-" });
  }
  // The defaults: key-value pairs, f32 keys, 64-bit keys.
  const vals = await gpu.array(make(Uint32Array, N, (i) => i));
  const pairMs = await timeKernel(gpu, mod, async () => {
    const r = await std.sort(k, { values: vals });
    r.keys.free();
    r.values.free();
  }, SMOKE ? 1 : 5);
  const pr = await std.sort(k, { values: vals });
  const pv = await pr.values.read();
  const pk = await pr.keys.read();
  let pcheck = checkSorted(pk, keys);
  for (let i = 0; i < N && pcheck === "ok"; i++) if (keys[pv[i]] !== pk[i] || (i > 0 && pk[i] === pk[i - 1] && pv[i] < pv[i - 1])) pcheck = `value ${i}: ${pv[i]} (not stable, or not its key's)`;
  pr.keys.free();
  pr.values.free();
  vals.free();
  rows.push({ part: "sort", what: "sort u32 pairs", variant: "default, u32 values", size: N, ms: pairMs, gkeys: N / pairMs / 1e6, check: pcheck });
  const fkeys = make(Float32Array, N, (i) => (hash(i * 5 + 2) >>> 8) / 2 ** 23 - 1);
  const kf = await gpu.array(fkeys);
  const fms = await timeKernel(gpu, mod, async () => (await std.sort(kf)).keys.free(), SMOKE ? 1 : 5);
  const fr = await std.sort(kf);
  const fcheck = checkSorted(await fr.keys.read(), fkeys);
  fr.keys.free();
  kf.free();
  rows.push({ part: "sort", what: "sort f32", variant: "default", size: N, ms: fms, gkeys: N / fms / 1e6, check: fcheck });
  const NW = N / 4;
  const wide = make(BigUint64Array, NW, (i) => (BigInt(hash(i)) << 32n) | BigInt(hash(i + NW)));
  const kw = await gpu.array(wide);
  const wms = await timeKernel(gpu, mod, async () => (await std.sort(kw)).keys.free(), SMOKE ? 1 : 3);
  const wr = await std.sort(kw);
  const wcheck = checkSorted(await wr.keys.read(), wide);
  wr.keys.free();
  kw.free();
  rows.push({ part: "sort", what: "sort u64", variant: "default", size: NW, ms: wms, gkeys: NW / wms / 1e6, check: wcheck });
  k.free();
}

function peers() {
  if (SMOKE) return { skipped: "smoke run" };
  const only = ["torch copy_ f32", ...(parts.includes("scan") ? ["torch.cumsum f32", "torch.cumsum i32"] : []), ...(parts.includes("sort") ? ["cupy.sort u32", "torch.sort i32"] : [])];
  try {
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "stdlib_peers.py"), JSON.stringify({ sizes: [...SMALL, N], sides: [], only })], { encoding: "utf8", maxBuffer: 1 << 24 });
    return JSON.parse(out.trim().split("\n").pop());
  } catch (e) {
    return { skipped: `peers not measured: ${String(e.message ?? e).split("\n")[0]}` };
  }
}

const PEER_OF = { "scan f32": "torch.cumsum f32", "scan i32": "torch.cumsum i32", "sort u32": "cupy.sort u32" };

const gpu = await openDevice({ device: SMOKE ? "cpu" : "auto" });
if (gpu.kind !== "cuda" && !SMOKE) {
  console.log(`stdlib_tune: skipped (no GPU: ${gpu.reason})`);
  process.exit(0);
}
const std = stdlib(gpu);
const mod = await std.module();
const rows = [];
// Each row as it is measured, so that a run cut short still says what it measured.
rows.push = (...xs) => {
  for (const r of xs) console.log(`  ${r.what} | ${r.variant} | 2^${Math.log2(r.size)} | ${Number(r.ms).toFixed(4)} ms | ${r.check}`);
  return Array.prototype.push.apply(rows, xs);
};
// The peers first, so that a run cut short still has them.
const peer = peers();
console.log(`peers: ${JSON.stringify(peer.ms ?? peer)}`);
if (parts.includes("scan")) await benchScan(gpu, std, mod, rows);
if (parts.includes("sort")) await benchSort(gpu, std, mod, rows);
for (const r of rows) {
  const pms = peer.ms?.[PEER_OF[r.what]]?.[String(r.size)];
  r.peerMs = pms;
  r.ratio = pms !== undefined ? pms / r.ms : undefined;
}
const copy = peer.ms?.["torch copy_ f32"];
console.log(
  table(
    `gk scan and sort launch shapes on ${gpu.name}${peer.skipped ? ` (${peer.skipped})` : ""}; torch copy_ f32 at 2^26: ${copy?.[String(N)] ? `${((8 * N) / copy[String(N)] / 1e6).toFixed(0)} GB/s` : "-"}`,
    ["call", "variant", "size", "gk ms", "gk figure", "peer ms", "gk / peer", "check"],
    rows.map((r) => [r.what, r.variant, `2^${Math.log2(r.size)}`, r.ms.toFixed(4), r.gbs !== undefined ? `${r.gbs.toFixed(0)} GB/s` : `${r.gkeys.toFixed(2)} Gkeys/s`, r.peerMs?.toFixed(4) ?? "-", r.ratio?.toFixed(2) ?? "-", r.check]),
  ),
);
const dir = process.env.OUT ?? RESULTS;
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "stdlib_tune.json"), JSON.stringify({ device: gpu.name, date: new Date().toISOString(), peers: peer, rows }, null, 2));
console.log(`\nwritten: ${join(dir, "stdlib_tune.json")}`);
await gpu.close();
