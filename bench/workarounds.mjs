// Issue 21's before/after kernels, on one GPU, in one run (kernel time: CUDA events, median of
// 20 launches, through a LauncherSession as bench/kernels.mjs times its kernels):
//   half data moved 4, 8 and 16 bytes at a time (bench/workarounds/halves.gk: haxpy over 2^26
//   f16 with f16x2, f16x4 and f16x8 accesses; before issue 21 only f16x2 was possible);
//   a tile staged through dynamic shared memory with scalar accesses and with load4/store4
//   (bench/workarounds/dynamic_shared.gk; before, load4 on a dynamic shared array was GK2046).
// Each row says whether its output equals the "before" kernel's bit for bit. Needs a GPU and
// `npm run build`; without a GPU it says why and writes that.
import { join } from "node:path";
import { frontEnd } from "../dist/pipeline.js";
import { buildModule } from "../dist/build/build.js";
import { LauncherSession } from "../dist/runtime/launcher.js";
import { barChart, findGpu, ROOT, table, writeResult } from "./lib.mjs";

const N = 1 << 26;

/** The comparisons: each a file, its kernels (the first is "before"), their launch shapes, arguments and figure. */
function groups() {
  const x = Uint16Array.from({ length: N }, (_, i) => 0x3c00 + (i % 1000)); // f16 bits of 1 to about 1.98
  const y = Uint16Array.from({ length: N }, (_, i) => 0x3800 + (i % 700)); // 0.5 to about 0.84
  const sc = (type, value) => ({ kind: "scalar", type, value });
  const halfBytes = 3 * 2 * N;
  const tile = 4096;
  const f = Float32Array.from({ length: N }, (_, i) => (i % 4099) * 0.25);
  return [
    {
      title: "haxpy 2^26 f16",
      file: "halves.gk",
      kernels: [
        { name: "haxpy2", label: "f16x2 (4 B) — before", grid: [N / 2 / 256, 1, 1] },
        { name: "haxpy4", label: "f16x4 (8 B)", grid: [N / 4 / 256, 1, 1] },
        { name: "haxpy8", label: "f16x8 (16 B)", grid: [N / 8 / 256, 1, 1] },
      ],
      block: [256, 1, 1],
      args: [sc("i32", N), sc("f16", 1.5), { kind: "in", data: x, elem: "f16" }, { kind: "in", data: y, elem: "f16" }, { kind: "out", elem: "f16", length: N }],
      figure: (ms) => `${(halfBytes / (ms * 1e-3) / 1e9).toFixed(0)} GB/s`,
    },
    {
      title: "a 4096-f32 tile through dynamic shared memory, 2^26 f32",
      file: "dynamic_shared.gk",
      kernels: [
        { name: "stage1", label: "scalar accesses — before", grid: [N / tile, 1, 1] },
        { name: "stage4", label: "load4/store4", grid: [N / tile, 1, 1] },
      ],
      block: [256, 1, 1],
      sharedBytes: 4 * tile,
      args: [{ kind: "in", data: f, elem: "f32" }, { kind: "out", elem: "f32", length: N }, sc("i32", tile)],
      figure: (ms) => `${((8 * N) / (ms * 1e-3) / 1e9).toFixed(0)} GB/s`,
    },
  ];
}

export async function benchWorkarounds() {
  const gpu = await findGpu();
  if (!("device" in gpu)) {
    console.log(`\nissue 21's before/after kernels: skipped (no GPU: ${gpu.reason})`);
    writeResult("workarounds", { skipped: gpu.reason });
    return;
  }
  const arch = gpu.device.arch;
  const session = new LauncherSession();
  const rows = [];
  try {
    for (const g of groups()) {
      const fe = frontEnd(join(ROOT, "bench", "workarounds", g.file));
      if (!fe.ir) throw new Error(`${g.file} does not check: ${fe.diagnostics.map((d) => d.message).join("; ")}`);
      const built = await buildModule(fe.ir, fe.sources, { arch });
      const module = await session.loadModule(built.cubin);
      const buffers = [];
      for (const a of g.args) buffers.push(a.kind === "in" ? await session.upload(a.data, a.elem) : a.kind === "out" ? await session.alloc(a.elem, a.length) : undefined);
      const outIndex = g.args.findIndex((a) => a.kind === "out");
      const args = g.args.map((a, i) => (a.kind === "scalar" ? a : { kind: "buffer", buffer: buffers[i] }));
      let before;
      for (const k of g.kernels) {
        // The dynamic array's length is its trailing gk_len_ argument (spec: launcher-protocol.md).
        const extra = g.sharedBytes ? [{ kind: "scalar", type: "u32", value: g.sharedBytes / 4 }] : [];
        const t = await session.launch({ module, kernel: built.symbols.get(k.name), grid: k.grid, block: g.block, args: [...args, ...extra], repeat: 20, ...(g.sharedBytes ? { sharedBytes: g.sharedBytes } : {}) });
        const out = await session.read(buffers[outIndex]);
        const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
        before ??= { ms: t.kernelMedianMs, bytes };
        rows.push({ group: g.title, kernel: k.label, ms: t.kernelMedianMs, figure: g.figure(t.kernelMedianMs), speedup: before.ms / t.kernelMedianMs, same: bytes.equals(before.bytes) });
      }
      for (const b of buffers) if (b) await session.free(b);
    }
  } finally {
    await session.close();
  }
  console.log(
    table(
      `issue 21 before/after on ${gpu.device.name} (kernel time, median of 20)`,
      ["case", "kernel", "ms", "figure", "speed vs before", "same output bits"],
      rows.map((r) => [r.group, r.kernel, r.ms, r.figure, r.speedup, r.same ? "yes" : "NO"]),
    ),
  );
  const chart = barChart({
    title: `issue 21 before/after on ${gpu.device.name}, kernel ms (median of 20)`,
    unit: "ms",
    bars: rows.map((r) => ({ group: r.group, label: r.kernel, value: r.ms, series: r.kernel.includes("before") ? "before" : "after" })),
  });
  console.log(`wrote ${writeResult("workarounds", { device: gpu.device.name, arch, rows }, chart)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchWorkarounds();
