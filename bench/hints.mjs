// Issue 21's before/after kernels, on one GPU in one run (kernel time, CUDA events, median of
// 20 launches): each "before" is what a kernel had to write (or what gk emitted) before the
// item, each "after" the same work with it.
//   item 7, f32 min/max (bench/hints/minmax.gk): gk's earlier min/max sequence (hand-written in
//     bench/reference/hints.cu), the `a > b ? a : b` workaround, and gk's max now (one FMNMX);
//   item 6, streaming accesses (bench/hints/streaming.gk): a stream read and written once
//     beside a table that L2 should keep, with plain accesses, with loadStreaming4 /
//     storeStreaming4, and with the table read by loadReadOnly too;
//   item 1, launch bounds (bench/hints/bounds.gk): a kernel that needs many registers, without
//     and with @launchBounds (ptxas then keeps enough blocks per SM).
// Outputs of each group are compared bit for bit with its first row. Needs a GPU and
// `npm run build`; says why it is skipped without one.
//   node bench/hints.mjs [ITEM...]      (e.g. `6 7`: those items' groups only)
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { LauncherSession } from "../dist/runtime/launcher.js";
import { compileCuda } from "../dist/build/nvcc.js";
import { barChart, findGpu, ROOT, table, writeResult } from "./lib.mjs";

const f32 = (n, f) => Float32Array.from({ length: n }, (_, i) => f(i));
const sc = (type, value) => ({ kind: "scalar", type, value });
const arr = (data) => ({ kind: "in", data });
const out = (elem, length) => ({ kind: "out", elem, length });

/** Each group: one set of arguments, the kernels (gk's, by file and name, or the reference's), and the figure per millisecond. */
function groups() {
  const n = 1 << 24;
  const big = 1 << 26;
  const tableLength = 1 << 23; // 32 MB of f32: fits the H100/H200's L2 (50 MB) while nothing pushes it out
  const x = f32(n, (i) => ((i * 2654435761) >>> 0) / 2 ** 32 * 8 - 4);
  const stream = f32(big, (i) => (i % 1000) * 0.001);
  const lookup = f32(tableLength, (i) => 1 + (i % 17) * 0.0625);
  const bounds = f32(n, (i) => (i % 1024) / 1024);
  return [
    {
      item: 7, name: "f32 min/max chain 2^24 x 256 steps", grid: [n / 256, 1, 1], block: [256, 1, 1], args: [sc("i32", n), arr(x), out("f32", n)],
      figure: (ms) => `${((n * 256 * 3) / (ms / 1000) / 1e9).toFixed(0)} G min/max/s`,
      kernels: [
        { label: "before: gk's earlier min/max (hand-written)", ref: "ref_max_helper" },
        { label: "before: a > b ? a : b", file: "minmax.gk", kernel: "maxSelect" },
        { label: "after: max/min (FMNMX)", file: "minmax.gk", kernel: "maxBuiltin" },
      ],
    },
    {
      item: 6, name: "stream 2^26 f32 through L2 beside a 32 MB table", grid: [big / 4 / 256, 1, 1], block: [256, 1, 1],
      args: [sc("i32", big), sc("i32", tableLength - 1), arr(stream), arr(lookup), out("f32", big)],
      figure: (ms) => `${((8 * big) / (ms / 1000) / 1e9).toFixed(0)} GB/s`,
      kernels: [
        { label: "before: plain load4/store4", file: "streaming.gk", kernel: "plain" },
        { label: "after: loadStreaming4/storeStreaming4", file: "streaming.gk", kernel: "streaming" },
        { label: "after: + loadReadOnly of the table", file: "streaming.gk", kernel: "readOnly" },
      ],
    },
    {
      item: 1, name: "register-heavy kernel 2^24, 256 threads", grid: [n / 256, 1, 1], block: [256, 1, 1], args: [sc("i32", n), arr(bounds), out("f32", n)],
      figure: (ms) => `${(n / (ms / 1000) / 1e9).toFixed(2)} G elements/s`,
      kernels: [
        { label: "before: no launch bounds", file: "bounds.gk", kernel: "unbounded" },
        { label: "after: @launchBounds(256, 4)", file: "bounds.gk", kernel: "bounded" },
      ],
    },
  ];
}

async function timeKernel(session, module, kernel, g, buffers) {
  const args = g.args.map((a, i) => (a.kind === "scalar" ? a : { kind: "buffer", buffer: buffers[i] }));
  const t = await session.launch({ module, kernel, grid: g.grid, block: g.block, args, repeat: 20 });
  return t.kernelMedianMs;
}

export async function benchHints() {
  const gpu = await findGpu();
  if (!("device" in gpu)) {
    console.log(`\nissue 21 before/after kernels: skipped (no GPU: ${gpu.reason})`);
    writeResult("hints", { skipped: gpu.reason });
    return;
  }
  const arch = gpu.device.arch;
  const dir = mkdtempSync(join(tmpdir(), "gk-bench-hints-"));
  const session = new LauncherSession();
  const rows = [];
  try {
    const ref = await compileCuda({ source: readFileSync(join(ROOT, "bench", "reference", "hints.cu"), "utf8"), arch, outDir: dir, baseName: "hints" });
    const refModule = await session.loadModule(ref.cubin);
    const built = new Map();
    const moduleOf = async (file) => {
      if (!built.has(file)) {
        const fe = frontEnd(join(ROOT, "bench", "hints", file));
        if (!fe.ir) throw new Error(`bench/hints/${file} does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
        const b = await buildModule(fe.ir, fe.sources, { arch });
        built.set(file, { module: await session.loadModule(b.cubin), symbols: b.symbols });
      }
      return built.get(file);
    };
    const only = process.argv.slice(2).map(Number).filter((x) => x > 0);
    for (const g of groups().filter((g) => only.length === 0 || only.includes(g.item))) {
      const buffers = [];
      for (const a of g.args) buffers.push(a.kind === "in" ? await session.upload(a.data) : a.kind === "out" ? await session.alloc(a.elem, a.length) : undefined);
      const outIndex = g.args.findIndex((a) => a.kind === "out");
      let first;
      for (const k of g.kernels) {
        const m = k.ref ? { module: refModule, symbol: k.ref } : await moduleOf(k.file).then((b) => ({ module: b.module, symbol: b.symbols.get(k.kernel) }));
        const ms = await timeKernel(session, m.module, m.symbol, g, buffers);
        const bytes = await session.read(buffers[outIndex]);
        const bits = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        first ??= { ms, bits };
        rows.push({ item: g.item, group: g.name, kernel: k.label, ms, speedup: first.ms / ms, figure: g.figure(ms), sameBits: bits.equals(first.bits) });
      }
      for (const b of buffers) if (b) await session.free(b);
    }
  } finally {
    await session.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    table(
      `issue 21 before/after on ${gpu.device.name} (kernel time, median of 20)`,
      ["item", "work", "kernel", "ms", "speed vs first", "figure", "same output bits as first"],
      rows.map((r) => [r.item, r.group, r.kernel, r.ms, r.speedup, r.figure, r.sameBits ? "yes" : "no"]),
    ),
  );
  const chart = barChart({
    title: `issue 21 before/after on ${gpu.device.name}, kernel ms (median of 20)`,
    unit: "ms",
    bars: rows.map((r) => ({ group: `${r.item}: ${r.group}`, label: r.kernel, value: r.ms, series: r.kernel.startsWith("before") ? "before" : "after" })),
  });
  console.log(`wrote ${writeResult("hints", { device: gpu.device.name, arch, rows }, chart)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHints();
