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

const SMOKE = process.env.GK_STDLIB_BENCH_SMOKE === "1";
const N = SMOKE ? 1 << 12 : 1 << 26;
const SMALL = SMOKE ? [] : [1 << 16, 1 << 20];
const ROUNDS = SMOKE ? 1 : 5;
const repsFor = (n) => (SMOKE ? 1 : n <= 1 << 16 ? 100 : n <= 1 << 20 ? 40 : 10);
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ["scan", "sort"];

const hash = (i) => Math.imul(i ^ (i >>> 13), 2654435761) >>> 0;

/** Kernel ms per call (median of rounds) of `run`, through the module's kernelTime hook. */
async function timeKernel(gpu, mod, run, reps) {
  let ms = 0;
  mod.kernelTime = (t) => {
    ms += t;
  };
  for (let i = 0; i < 2; i++) await run();
  await gpu.sync();
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    ms = 0;
    for (let i = 0; i < reps; i++) await run();
    await gpu.sync();
    rounds.push(ms / reps);
  }
  mod.kernelTime = undefined;
  return median(rounds);
}

/** The inclusive (or exclusive) sum of `x` as the kernel computes it for i32, or in f64 for f32. */
function refScan(x, exclusive) {
  const out = new Float64Array(x.length);
  const int = x instanceof Int32Array;
  let acc = 0;
  for (let i = 0; i < x.length; i++) {
    const next = int ? (acc + x[i]) | 0 : acc + x[i];
    out[i] = exclusive ? acc : next;
    acc = next;
  }
  return out;
}

/** "ok", or what is wrong with y against ref. */
function compare(y, ref, exact) {
  const scale = exact ? 0 : Math.max(1, ...[ref[0], ref[ref.length - 1]].map(Math.abs));
  for (let i = 0; i < ref.length; i++) {
    const bad = exact ? y[i] !== ref[i] : !(Math.abs(y[i] - ref[i]) <= 1e-5 * scale);
    if (bad) return `element ${i}: ${y[i]} (expected ${ref[i]})`;
  }
  return "ok";
}

async function benchScan(gpu, std, mod, rows) {
  const data = {
    f32: Float32Array.from({ length: N }, (_, i) => (hash(i) >>> 8) / 2 ** 24),
    i32: Int32Array.from({ length: N }, (_, i) => (hash(i) % 2001) - 1000),
  };
  const refs = { f32: refScan(data.f32, false), i32: refScan(data.i32, false) };
  // The same kernel with the tile taken from blockIdx.x instead of the ticket (bench only: it
  // leans on blocks starting in index order, which CUDA does not promise), to price the ticket.
  const ordered = await gpu.compileSource(
    readFileSync(join(ROOT, "stdlib", "scan.gk"), "utf8").replace("tileId = i32(atomicAdd(ticket, 0, u32(1)) - ticketBase);", "tileId = blockIdx.x;"),
    { filename: join(ROOT, "stdlib", "scan-ordered-bench.gk") },
  );
  const shapes = [];
  for (const block of [128, 256, 512]) for (const items of [8, 16, 24, 32]) shapes.push({ block, items });
  for (const elem of ["f32", "i32"]) {
    const x = await gpu.array(data[elem]);
    const y = await gpu.zeros(elem, N);
    const initial = { ...std.tuning };
    for (const { block, items } of shapes) {
      std.tuning.scanBlock = block;
      std.tuning.scanItems = items;
      const ms = await timeKernel(gpu, mod, () => std.scan(x, { out: y }), repsFor(N));
      await y.fill(-7);
      await std.scan(x, { out: y });
      const check = compare(await y.read(), refs[elem], elem === "i32");
      rows.push({ part: "scan", what: `scan ${elem}`, variant: `ticket ${block}x${items}`, size: N, ms, gbs: (8 * N) / ms / 1e6, check });
    }
    Object.assign(std.tuning, initial);
    // The ordered variant at two shapes, launched directly.
    for (const { block, items } of [{ block: 256, items: 16 }, { block: 512, items: 16 }]) {
      const tiles = Math.ceil(N / (block * items));
      const status = await gpu.zeros("u32", tiles), aggregates = await gpu.zeros(elem, tiles), prefixes = await gpu.zeros(elem, tiles), ticket = await gpu.zeros("u32", 1);
      const k = ordered.scan.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: false });
      let epoch = 0;
      const run = (kernelTime) => k({ grid: tiles, block, ...(kernelTime && { kernelTime }) }, { n: N, x, y, status, aggregates, prefixes, ticket, epoch: ++epoch, ticketBase: 0 });
      let ms = 0;
      for (let i = 0; i < 2; i++) await run();
      const rounds = [];
      for (let r = 0; r < ROUNDS; r++) {
        ms = 0;
        for (let i = 0; i < repsFor(N); i++) await run((t) => (ms += t));
        await gpu.sync();
        rounds.push(ms / repsFor(N));
      }
      await y.fill(-7);
      await run();
      const check = compare(await y.read(), refs[elem], elem === "i32");
      const med = median(rounds);
      rows.push({ part: "scan", what: `scan ${elem}`, variant: `blockIdx ${block}x${items}`, size: N, ms: med, gbs: (8 * N) / med / 1e6, check });
      for (const a of [status, aggregates, prefixes, ticket]) a.free();
    }
    // The defaults at the launch-bound sizes.
    for (const n of SMALL) {
      const xs = await gpu.array(data[elem].subarray(0, n));
      const ys = await gpu.zeros(elem, n);
      const ms = await timeKernel(gpu, mod, () => std.scan(xs, { out: ys }), repsFor(n));
      await ys.fill(-7);
      await std.scan(xs, { out: ys });
      const check = compare(await ys.read(), refs[elem].subarray(0, n), elem === "i32");
      rows.push({ part: "scan", what: `scan ${elem}`, variant: `default ${std.tuning.scanBlock}x${std.tuning.scanItems}`, size: n, ms, gbs: (8 * n) / ms / 1e6, check });
      xs.free();
      ys.free();
    }
    x.free();
    y.free();
  }
}

async function benchSort(gpu, std, mod, rows) {
  const keys = Uint32Array.from({ length: N }, (_, i) => hash(i * 3 + 1));
  const sorted = Uint32Array.from(keys).sort();
  const k = await gpu.array(keys);
  const variants = [];
  for (const sortItems of [8, 12, 16]) variants.push({ sortItems });
  const initial = { ...std.tuning };
  for (const v of variants) {
    Object.assign(std.tuning, v);
    const ms = await timeKernel(gpu, mod, async () => (await std.sort(k)).keys.free(), SMOKE ? 1 : 5);
    const r = await std.sort(k);
    const check = compare(await r.keys.read(), sorted, true);
    r.keys.free();
    rows.push({ part: "sort", what: "sort u32", variant: Object.entries(v).map(([a, b]) => `${a}=${b}`).join(" "), size: N, ms, gkeys: N / ms / 1e6, check });
  }
  Object.assign(std.tuning, initial);
  for (const n of SMALL) {
    const ks = await gpu.array(keys.subarray(0, n));
    const ms = await timeKernel(gpu, mod, async () => (await std.sort(ks)).keys.free(), repsFor(n));
    const r = await std.sort(ks);
    const check = compare(await r.keys.read(), Uint32Array.from(keys.subarray(0, n)).sort(), true);
    r.keys.free();
    rows.push({ part: "sort", what: "sort u32", variant: "default", size: n, ms, gkeys: n / ms / 1e6, check });
    ks.free();
  }
  k.free();
}

function peers() {
  if (SMOKE) return { skipped: "smoke run" };
  const only = ["torch copy_ f32", "torch.cumsum f32", "torch.cumsum i32", "cupy.sort u32", "torch.sort i32"];
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
if (parts.includes("scan")) await benchScan(gpu, std, mod, rows);
if (parts.includes("sort")) await benchSort(gpu, std, mod, rows);
const peer = peers();
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
