// Issue 23's gk variants (bench/issue23.gk) beside the library and the peers in one run: the
// pipelined persistent scan (scanPipelined) against std.scan (scanPacked) and torch.cumsum, and
// the reduction with unrolled loads (reduceUnrolled) at several grids against std.sum/std.max and
// torch.sum/torch.max, at 2^16, 2^20 and 2^26 elements. gk's figure is kernel time (CUDA events
// per launch), the median of 5 rounds. Every output is checked: the scans against a plain JS
// scan (i32 bit for bit, f32 within 1e-5 of the largest prefix, against f64), the reductions
// against the library's result at 2^16/2^20 and an f64 sum. Writes $OUT/issue23.json (else
// bench/results/issue23.json).
//
//   npm run build && node bench/issue23.mjs [packed] [scan] [reduce]
// packed: gk/std/scan's scanPacked at status-word strides (STRIDE) and tile shapes beside
// std.scan; scan: the pipelined scan (batch 3 of 2026-11-29: 0.235-0.346 ms at 2^26, slower than
// scanPacked's 0.210 there); reduce: the unrolled reductions.
// GK_STDLIB_BENCH_SMOKE=1: on the simulator at small sizes, each variant against the library's
// kernel at the same shape, bit for bit (the variants compute the same combinations in the same
// order), no peers.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDevice, stdlib } from "../dist/index.js";
import { ROOT, RESULTS } from "./lib.mjs";
import { compareScan as compare, hash, refScan, timeKernel, timeLaunch as timeLaunchRounds } from "./stdlibLib.mjs";

const SMOKE = process.env.GK_STDLIB_BENCH_SMOKE === "1";
const SIZES = SMOKE ? [1, 33, 4096, 5000] : [1 << 16, 1 << 20, 1 << 26];
const parts = process.argv.slice(2).length ? process.argv.slice(2) : ["packed", "scan", "reduce"];
const ROUNDS = SMOKE ? 1 : 5;
const repsFor = (n) => (SMOKE ? 1 : n <= 1 << 16 ? 100 : n <= 1 << 20 ? 40 : 10);

const gpu = await openDevice({ device: SMOKE ? "cpu" : "auto" });
if (gpu.kind !== "cuda" && !SMOKE) {
  console.log(`issue23: skipped (no GPU: ${gpu.reason})`);
  process.exit(0);
}
const SMS = SMOKE ? 2 : (gpu.info?.multiprocessorCount ?? 132);
const std = stdlib(gpu);
const mod = await std.module();
/** Kernel ms per launch or library call, the median of ROUNDS rounds (bench/stdlibLib.mjs); `queued`: a round's calls made at once. */
const timeLaunch = (launch, reps) => timeLaunchRounds(gpu, launch, reps, ROUNDS);
const timeCall = (run, reps, queued) => timeKernel(gpu, mod, run, reps, ROUNDS, queued);
const V = await gpu.compileSource(readFileSync(join(ROOT, "bench", "issue23.gk"), "utf8"), { filename: join(ROOT, "bench", "issue23.gk") });
// The pipelined scan's shapes: [block, items, minBlocks, ahead].
const SCAN_SHAPES = SMOKE ? [[64, 8, 1, false], [32, 4, 2, true]] : [[512, 16, 2, false], [512, 16, 2, true], [256, 16, 4, true], [512, 12, 2, true], [512, 8, 4, true]];
// The reduction's shapes: [block, grid (a function of n), unroll, name]
const REDUCE_SHAPES = SMOKE
  ? [[64, () => 3, 4, "64 x 3 u4"], [32, () => 5, 2, "32 x 5 u2"]]
  : [
      [256, (n) => Math.min(2048, Math.ceil(n / 1024)), 1, "256 x library grid u1"],
      [256, (n) => Math.min(2048, Math.ceil(n / 1024)), 4, "256 x library grid u4"],
      [256, (n) => Math.min(8 * SMS, Math.ceil(n / 1024)), 4, "256 x 8/SM u4"],
      [256, (n) => Math.min(8 * SMS, Math.ceil(n / 1024)), 8, "256 x 8/SM u8"],
      [512, (n) => Math.min(4 * SMS, Math.ceil(n / 2048)), 4, "512 x 4/SM u4"],
      [512, (n) => Math.min(4 * SMS, Math.ceil(n / 2048)), 8, "512 x 4/SM u8"],
      [1024, (n) => Math.min(2 * SMS, Math.ceil(n / 4096)), 4, "1024 x 2/SM u4"],
      [1024, (n) => Math.min(2 * SMS, Math.ceil(n / 4096)), 8, "1024 x 2/SM u8"],
    ];
// scanPacked's variants: [block, items, minBlocks, windows, stride, sizes].
const PACKED = SMOKE
  ? [[64, 8, 1, 1, 1, SIZES], [32, 4, 2, 2, 16, SIZES]]
  : [
      [128, 8, 8, 4, 1, [1 << 16]], [128, 8, 8, 4, 16, [1 << 16]], [256, 8, 4, 4, 16, [1 << 16]],
      [256, 16, 4, 4, 1, [1 << 20]], [256, 16, 4, 4, 16, [1 << 20]], [256, 8, 4, 4, 16, [1 << 20]],
      [512, 32, 2, 1, 1, [1 << 26]], [512, 32, 2, 1, 4, [1 << 26]], [512, 32, 2, 1, 8, [1 << 26]], [512, 32, 2, 1, 16, [1 << 26]], [512, 32, 2, 1, 32, [1 << 26]],
      [512, 32, 2, 2, 16, [1 << 26]], [1024, 32, 1, 1, 16, [1 << 26]], [256, 32, 4, 1, 16, [1 << 26]], [512, 16, 4, 1, 16, [1 << 26]], [512, 24, 2, 1, 16, [1 << 26]],
    ];
const rows = [];
const row = (r) => {
  rows.push(r);
  console.log(`  ${r.what} | ${r.variant} | 2^${Math.log2(r.size).toFixed(1)} | ${Number(r.ms).toFixed(4)} ms | ${r.check}`);
};

function peers() {
  if (SMOKE) return { skipped: "smoke run" };
  const only = ["torch copy_ f32", ...(parts.includes("scan") || parts.includes("packed") ? ["torch.cumsum f32", "torch.cumsum i32"] : []), ...(parts.includes("reduce") ? ["torch.sum", "torch.max"] : [])];
  try {
    const out = execFileSync("python3", [join(ROOT, "bench", "peers", "stdlib_peers.py"), JSON.stringify({ sizes: SIZES, sides: [], only })], { encoding: "utf8", maxBuffer: 1 << 24 });
    return JSON.parse(out.trim().split("\n").pop());
  } catch (e) {
    return { skipped: `peers not measured: ${String(e.message ?? e).split("\n")[0]}` };
  }
}

function sameBits(a, b) {
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return `element ${i}: ${a[i]} (the library: ${b[i]})`;
  return "ok (same bits as scanPacked)";
}

/** A scan's input at the largest size, on the host and the GPU, and an output array: the sizes take views of their first n elements. */
async function scanArrays(elem) {
  const maxN = SIZES[SIZES.length - 1];
  const host = elem === "f32" ? new Float32Array(maxN) : new Int32Array(maxN);
  for (let i = 0; i < maxN; i++) host[i] = elem === "f32" ? (hash(i) >>> 8) / 2 ** 24 : (hash(i) % 2001) - 1000;
  return { host, x: await gpu.array(host), y: await gpu.zeros(elem, maxN) };
}

async function benchScan() {
  const words = await gpu.zeros("u64", 1 << 16);
  const ticket = await gpu.zeros("u32", 1);
  let epoch = 0, issued = 0;
  const shapes = SCAN_SHAPES;
  for (const elem of ["f32", "i32"]) {
    const { host, x, y } = await scanArrays(elem);
    for (const n of SIZES) {
      const xs = n === x.length ? x : x.view(0, n);
      const ys = n === y.length ? y : y.view(0, n);
      for (const exclusive of SMOKE ? [false, true] : [false]) {
        const ref = refScan(host.subarray(0, n), exclusive);
        if (!SMOKE) {
          const ms = await timeCall(() => std.scan(xs, { out: ys, exclusive }), repsFor(n), false);
          await ys.fill(-7);
          await std.scan(xs, { out: ys, exclusive });
          row({ what: `scan ${elem}`, variant: "std.scan", size: n, ms, check: compare(await ys.read(), ref, elem === "i32") });
        }
        for (const [block, items, minb, ahead] of shapes) {
          const tiles = Math.ceil(n / (block * items));
          const grid = Math.min(tiles, SMS * minb);
          const k = V.scanPipelined.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: exclusive, MINB: minb, AHEAD: ahead });
          const launch = (kernelTime) => {
            const ticketBase = issued;
            issued = (issued + tiles + grid) >>> 0;
            epoch = (epoch % (2 ** 30 - 2)) + 1;
            return k({ grid, block, ...(kernelTime && { kernelTime }) }, { n, x: xs, y: ys, words, ticket, epoch, ticketBase });
          };
          const ms = SMOKE ? NaN : await timeLaunch(launch, repsFor(n));
          await ys.fill(-7);
          await launch();
          const got = await ys.read();
          let check;
          if (SMOKE) {
            // The library's kernel at the same tile shape: the same bits.
            const y2 = await gpu.zeros(elem, n);
            const t2 = await gpu.zeros("u32", 1);
            const w2 = await gpu.zeros("u64", tiles + 1);
            await mod.mod.scanPacked.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: exclusive, MINB: minb, LOOK: 1, STRIDE: 1 })({ grid: tiles, block }, { n, x: xs, y: y2, words: w2, ticket: t2, epoch: 1, ticketBase: 0 });
            check = sameBits(got, await y2.read());
            if (check.startsWith("ok")) check = compare(got, ref, elem === "i32") === "ok" ? check : compare(got, ref, elem === "i32");
            for (const a of [y2, t2, w2]) a.free();
          } else check = compare(got, ref, elem === "i32");
          row({ what: `scan ${elem}${exclusive ? " exclusive" : ""}`, variant: `pipelined ${block}x${items} m${minb}${ahead ? " ahead" : ""}`, size: n, ms, check });
        }
      }
    }
    x.free();
    y.free();
  }
  words.free();
  ticket.free();
}

/** gk/std/scan's scanPacked at PACKED's shapes beside std.scan, each output checked against a plain JS scan. */
async function benchPacked() {
  // Every variant's status words: tiles * STRIDE of them at its largest size (a kernel does not check its bounds).
  const words = await gpu.zeros("u64", Math.max(...PACKED.map(([block, items, , , stride, sizes]) => Math.ceil(Math.max(...sizes) / (block * items)) * stride)));
  const ticket = await gpu.zeros("u32", 1);
  let epoch = 0, issued = 0;
  for (const elem of ["f32", "i32"]) {
    const { host, x, y } = await scanArrays(elem);
    for (const n of SIZES) {
      const xs = n === x.length ? x : x.view(0, n);
      const ys = n === y.length ? y : y.view(0, n);
      const ref = refScan(host.subarray(0, n), false);
      const shape = std.tuning.scan.find((sh) => n < sh.below);
      if (!SMOKE) {
        const ms = await timeCall(() => std.scan(xs, { out: ys }), repsFor(n), false);
        await ys.fill(-7);
        await std.scan(xs, { out: ys });
        row({ what: `scan ${elem}`, variant: `std.scan (${shape.block}x${shape.items} m${shape.minBlocks} w${shape.windows} s${shape.stride})`, size: n, ms, check: compare(await ys.read(), ref, elem === "i32") });
      }
      for (const [block, items, minb, look, stride, sizes] of PACKED) {
        if (!sizes.includes(n)) continue;
        const tiles = Math.ceil(n / (block * items));
        const k = mod.mod.scanPacked.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: false, MINB: minb, LOOK: look, STRIDE: stride });
        const launch = (kernelTime) => {
          const ticketBase = issued;
          issued = (issued + tiles) >>> 0;
          epoch = (epoch % (2 ** 30 - 2)) + 1;
          return k({ grid: tiles, block, ...(kernelTime && { kernelTime }) }, { n, x: xs, y: ys, words, ticket, epoch, ticketBase });
        };
        const ms = SMOKE ? NaN : await timeLaunch(launch, repsFor(n));
        await ys.fill(-7);
        await launch();
        row({ what: `scan ${elem}`, variant: `packed ${block}x${items} m${minb} w${look} s${stride}`, size: n, ms, check: compare(await ys.read(), ref, elem === "i32") });
      }
    }
    x.free();
    y.free();
  }
  words.free();
  ticket.free();
}

async function benchReduce() {
  const maxN = SIZES[SIZES.length - 1];
  const host = new Float32Array(maxN);
  for (let i = 0; i < maxN; i++) host[i] = (hash(i) >>> 8) / 2 ** 24;
  const x = await gpu.array(host);
  const out = await gpu.zeros("f32", 1);
  const partial = await gpu.zeros("f32", 1 << 16);
  const counter = await gpu.zeros("u32", 1);
  const shapes = REDUCE_SHAPES;
  for (const [op, name] of [[0, "sum"], [2, "max"]]) {
    for (const n of SIZES) {
      const xs = n === maxN ? x : x.view(0, n);
      let want = 0;
      if (op === 0) for (let i = 0; i < n; i++) want += host[i];
      else want = host.subarray(0, n).reduce((a, b) => Math.max(a, b), -Infinity);
      if (!SMOKE) {
        const ms = await timeCall(() => (op === 0 ? std.sum(xs) : std.max(xs)), repsFor(n), true);
        const one = await timeCall(() => (op === 0 ? std.sum(xs) : std.max(xs)), repsFor(n), false);
        row({ what: `${name} f32`, variant: "std, calls one after another", size: n, ms: one, check: "-" });
        const got = op === 0 ? await std.sum(xs) : await std.max(xs);
        row({ what: `${name} f32`, variant: "std, calls made at once", size: n, ms, check: op === 0 ? (Math.abs(got - want) <= 1e-5 * want ? "ok" : `${got} (f64 ${want})`) : got === want ? "ok" : `${got} (expected ${want})` });
      }
      for (const [block, gridOf, unroll, label] of shapes) {
        const grid = Math.max(1, gridOf(n));
        const k = V.reduceUnrolled.with({ T: "f32", OP: op, BLOCK: block, UNROLL: unroll });
        const launch = (kernelTime) => k({ grid, block, ...(kernelTime && { kernelTime }) }, { n, x: xs, out, partial, counter });
        const ms = SMOKE ? NaN : await timeLaunch(launch, repsFor(n));
        await out.fill(-7);
        await launch();
        const got = (await out.read())[0];
        let check = op === 0 ? (Math.abs(got - want) <= 1e-5 * Math.max(1, want) ? "ok" : `${got} (f64 ${want})`) : got === want ? "ok" : `${got} (expected ${want})`;
        if (SMOKE) {
          // The library's kernel at the same grid and block: the same bits.
          await out.fill(-7);
          await mod.mod.reduce.with({ T: "f32", OP: op, BLOCK: block })({ grid, block }, { n, x: xs, out, partial, counter });
          const lib = (await out.read())[0];
          if (!Object.is(lib, got)) check = `${got} (the library: ${lib})`;
          else if (check === "ok") check = "ok (same bits as reduce)";
        }
        row({ what: `${name} f32`, variant: label, size: n, ms, check });
      }
    }
  }
  for (const a of [x, out, partial, counter]) a.free();
}

/** Every instance this run launches, built at once (nvcc runs in parallel), each run on a tiny array. */
async function warm() {
  const jobs = [];
  const tiny = [];
  if (parts.includes("scan")) {
    for (const elem of ["f32", "i32"]) {
      const [x, y] = [await gpu.zeros(elem, 64), await gpu.zeros(elem, 64)];
      tiny.push(x, y);
      for (const [block, items, minb, ahead] of SCAN_SHAPES) {
        // A ticket and words of its own for each launch (each scans tile 0 of its own).
        const [words, ticket] = [await gpu.zeros("u64", 4), await gpu.zeros("u32", 1)];
        tiny.push(words, ticket);
        jobs.push(V.scanPipelined.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: false, MINB: minb, AHEAD: ahead })({ grid: 1, block }, { n: 64, x, y, words, ticket, epoch: 1, ticketBase: 0 }));
      }
    }
  }
  if (parts.includes("packed")) {
    for (const elem of ["f32", "i32"]) {
      const [x, y] = [await gpu.zeros(elem, 64), await gpu.zeros(elem, 64)];
      tiny.push(x, y);
      for (const [block, items, minb, look, stride] of PACKED) {
        const [words, ticket] = [await gpu.zeros("u64", 4), await gpu.zeros("u32", 1)];
        tiny.push(words, ticket);
        jobs.push(mod.mod.scanPacked.with({ T: elem, OP: 0, BLOCK: block, ITEMS: items, EXCLUSIVE: false, MINB: minb, LOOK: look, STRIDE: stride })({ grid: 1, block }, { n: 64, x, y, words, ticket, epoch: 1, ticketBase: 0 }));
      }
      jobs.push(std.scan(x, { out: y }), std.sum(x), std.max(x));
    }
  }
  if (parts.includes("reduce")) {
    const [x, out, partial, counter] = [await gpu.zeros("f32", 64), await gpu.zeros("f32", 1), await gpu.zeros("f32", 4), await gpu.zeros("u32", 1)];
    tiny.push(x, out, partial, counter);
    for (const op of [0, 2]) for (const [block, , unroll] of REDUCE_SHAPES) jobs.push(V.reduceUnrolled.with({ T: "f32", OP: op, BLOCK: block, UNROLL: unroll })({ grid: 1, block }, { n: 64, x, out, partial, counter }));
  }
  await Promise.all(jobs);
  await gpu.sync();
  for (const a of tiny) a.free();
}

const t0 = performance.now();
await warm();
console.log(`built and ran every instance once in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const peer = peers();
console.log(`peers: ${JSON.stringify(peer.ms ?? peer)}`);
if (parts.includes("reduce")) await benchReduce();
if (parts.includes("packed")) await benchPacked();
if (parts.includes("scan")) await benchScan();
const PEER = { "scan f32": "torch.cumsum f32", "scan i32": "torch.cumsum i32", "sum f32": "torch.sum", "max f32": "torch.max" };
for (const r of rows) {
  const p = peer.ms?.[PEER[r.what]]?.[String(r.size)];
  if (p !== undefined) {
    r.peerMs = p;
    r.ratio = p / r.ms;
  }
}
console.log(rows.map((r) => `${r.what.padEnd(18)} ${r.variant.padEnd(28)} 2^${Math.log2(r.size).toFixed(0).padEnd(3)} ${Number(r.ms).toFixed(4)} ms  peer ${r.peerMs?.toFixed(4) ?? "-"}  x${r.ratio?.toFixed(3) ?? "-"}  ${r.check}`).join("\n"));
const dir = process.env.OUT ?? RESULTS;
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "issue23.json"), JSON.stringify({ device: gpu.name, date: new Date().toISOString(), peers: peer, rows }, null, 1));
await gpu.close();
