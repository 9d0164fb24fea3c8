// Which f32 operations a WebGPU implementation rounds correctly (spec/wgsl.md, Numerics): each
// row runs one WGSL expression over N random operands in one invocation and compares with
// JavaScript's f64 result rounded once to f32 (exact for + - * / sqrt and the conversions; within
// 1 ulp of the true value for the transcendental functions), leaving out and counting operands
// and results that are subnormal (an implementation may flush them, and SwiftShader does).
// `x % y` and the conversions go through the WGSL backend's own helpers (src/codegen/wgsl).
// It runs in headless chromium's WebGPU (SwiftShader without a GPU; Dawn in Node crashed at
// random in this sandbox's threads, chromium did not):
//
//   npx tsx bench/wgsl-numerics.ts        (GK_WGSL_NUMERICS_N: operands per row, default 4096)
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fmodHelper, HelperSet } from "../src/codegen/wgsl/helpers.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const N = Number(process.env.GK_WGSL_NUMERICS_N ?? 4096);
const helpers = new HelperSet();
fmodHelper(helpers);
const HELPERS = helpers.lines().join("\n");

/** Runs in the page: every row, its line of results. */
async function measureAll(N: number, HELPERS: string): Promise<string[]> {
  const lines: string[] = [];
  const log = (s: string) => lines.push(s);
  const adapter = await (navigator as any).gpu.requestAdapter();
  const device = await adapter.requestDevice();
  const GPUBufferUsage = (globalThis as any).GPUBufferUsage;
  const GPUMapMode = (globalThis as any).GPUMapMode;
  let seed = 12345;
  const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed; };
  const bitsF = (u) => new Float32Array(new Uint32Array([u]).buffer)[0];
  function randF(kind) {
    for (;;) {
      const u = rnd() ^ (rnd() << 16);
      const f = bitsF(u >>> 0);
      if (!Number.isFinite(f)) continue;
      if (kind === "normal" && (Math.abs(f) < 2 ** -126 || Math.abs(f) > 2 ** 100)) continue;
      if (kind === "unit") return Math.fround((rnd() / 2 ** 32) * 20 - 10);
      if (kind === "sub") return bitsF((rnd() & 0x807fffff) >>> 0);
      return f;
    }
  }

  async function run(expr, inputs, outType = "f32") {
    const code = HELPERS + `
  @group(0) @binding(0) var<storage, read> a: array<f32>;
  @group(0) @binding(1) var<storage, read> b: array<f32>;
  @group(0) @binding(2) var<storage, read> c: array<f32>;
  @group(0) @binding(3) var<storage, read_write> o: array<${outType}>;
  @compute @workgroup_size(1) fn k() {
    for (var i = 0u; i < ${N}u; i++) {
    let x = a[i]; let y = b[i]; let z = c[i]; let ix = bitcast<i32>(a[i]); let ux = bitcast<u32>(a[i]);
    o[i] = ${expr};
    }
  }`;
    const m = device.createShaderModule({ code });
    const info = await m.getCompilationInfo();
    if (info.messages.some((x) => x.type === "error")) throw new Error(info.messages.map((x) => x.message).join("\n"));
    const p = device.createComputePipeline({ layout: "auto", compute: { module: m, entryPoint: "k" } });
    const mk = (arr) => { const buf = device.createBuffer({ size: N * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }); device.queue.writeBuffer(buf, 0, arr); return buf; };
    const out = device.createBuffer({ size: N * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    const rb = device.createBuffer({ size: N * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const entries = [...inputs.map((arr, i) => ({ binding: i, resource: { buffer: mk(arr) } })), { binding: 3, resource: { buffer: out } }];
    const layout = p.getBindGroupLayout(0);
    const bg = device.createBindGroup({ layout, entries });
    const enc = device.createCommandEncoder(); const pass = enc.beginComputePass(); pass.setPipeline(p); pass.setBindGroup(0, bg); pass.dispatchWorkgroups(1); pass.end();
    enc.copyBufferToBuffer(out, 0, rb, 0, N * 4); device.queue.submit([enc.finish()]);
    await rb.mapAsync(GPUMapMode.READ);
    return new Uint32Array(rb.getMappedRange().slice(0));
  }
  const ulpDiff = (gotBits, want) => {
    const w = new Uint32Array(new Float32Array([want]).buffer)[0];
    if (Number.isNaN(want)) return Number.isNaN(bitsF(gotBits)) ? 0 : Infinity;
    const toOrd = (u) => (u & 0x80000000 ? -(u & 0x7fffffff) : u);
    return Math.abs(toOrd(gotBits) - toOrd(w));
  };
  async function measure(name, expr, kinds, ref) {
    const ins = [0, 1, 2].map((k) => Float32Array.from({ length: N }, () => randF(kinds[k] ?? kinds[0])));
    const got = await run(expr, ins);
    let max = 0, wrong = 0, ex, sub = 0;
    const isSub = (v) => v !== 0 && Math.abs(v) < 2 ** -126;
    const noSub = !name.startsWith("subnormal");
    for (let i = 0; i < N; i++) {
      const want = Math.fround(ref(ins[0][i], ins[1][i], ins[2][i]));
      if (noSub && (isSub(ins[0][i]) || isSub(ins[1][i]) || isSub(ins[2][i]) || isSub(want))) { sub++; continue; }
      const d = ulpDiff(got[i], want);
      if (d > 0) { wrong++; if (d > max) { max = d; ex = [ins[0][i], ins[1][i], ins[2][i], bitsF(got[i]), want]; } }
    }
    log(`${name.padEnd(28)} ${wrong}/${N - sub} not correctly rounded (${sub} with a subnormal operand or result left out), max ${max} ulp${ex ? `  e.g. (${ex.slice(0, 3).join(", ")}) -> ${ex[3]} want ${ex[4]}` : ""}`);
  }

  const all = [
  () => measure("x + y", "x + y", ["any"], (a, b) => a + b),
  () => measure("x * y", "x * y", ["any"], (a, b) => a * b),
  () => measure("x / y", "x / y", ["any"], (a, b) => a / b),
  () => measure("x / y (normal)", "x / y", ["normal"], (a, b) => a / b),
  () => measure("sqrt(x)", "sqrt(abs(x))", ["any"], (a) => Math.sqrt(Math.abs(a))),
  () => measure("subnormal x * 1", "x * (y * 0.0 + 1.0)", ["sub"], (a) => a),
  () => measure("subnormal x + y(sub)", "x + y", ["sub"], (a, b) => a + b),
  () => measure("exp(x) [-10,10]", "exp(x)", ["unit"], (a) => Math.exp(a)),
  () => measure("log(|x|)", "log(abs(x))", ["normal"], (a) => Math.log(Math.abs(a))),
  () => measure("sin(x) [-10,10]", "sin(x)", ["unit"], (a) => Math.sin(a)),
  () => measure("cos(x) [-10,10]", "cos(x)", ["unit"], (a) => Math.cos(a)),
  () => measure("x * y + z (contracted?)", "x * y + z", ["unit"], (a, b, c) => Math.fround(Math.fround(a * b) + c)),
  () => measure("i32 -> f32", "f32(ix)", ["any"], (a) => new Int32Array(new Float32Array([a]).buffer)[0]),
  () => measure("u32 -> f32", "f32(ux)", ["any"], (a) => new Uint32Array(new Float32Array([a]).buffer)[0]),
  () => measure("u32 -> f32 (gk helper)", "f32(ux >> 16u) * 65536.0f + f32(ux & 0xffffu)", ["any"], (a) => new Uint32Array(new Float32Array([a]).buffer)[0]),
  () => measure("i32 -> f32 (gk helper)", "f32(ix >> 16u) * 65536.0f + f32(ix & 0xffff)", ["any"], (a) => new Int32Array(new Float32Array([a]).buffer)[0]),
  () => measure("fma(x, y, z)", "fma(x, y, z)", ["unit"], (a, b, c) => a * b + c),
  () => measure("inverseSqrt(x)", "inverseSqrt(abs(x))", ["normal"], (a) => 1 / Math.sqrt(Math.abs(a))),
  () => measure("gk_fmod (x % y)", "gk_fmod_f32(x, y)", ["any"], (a, b) => a % b)
];
  for (const f of all) await f();
  return lines;
}

const server = createServer((_, res) => {
  res.writeHead(200, { "content-type": "text/html" });
  res.end("<html></html>");
});
await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
const { default: puppeteer } = await import("puppeteer-core");
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--enable-unsafe-webgpu", "--enable-unsafe-swiftshader", "--use-webgpu-adapter=swiftshader", "--enable-features=Vulkan"],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  // Passed as text: the function runs in the page, where tsx's `__name` helper does not exist.
  const lines = (await page.evaluate(`var __name = (f) => f; (${measureAll.toString()})(${N}, ${JSON.stringify(HELPERS)})`)) as string[];
  console.log(lines.join("\n"));
} finally {
  await browser.close();
  server.close();
}
