// Why two of the examples are slow on WebGPU (issue 27): hand-written variants of the WGSL gk
// generates for sgemm.gk and reduce.gk's block_sum, timed through Dawn straight (no gk), each
// with Dawn's robustness on (the default) and off, their outputs checked against the first
// variant's. Each variant changes one thing the generated shader does, so the table says
// which of them costs the time:
//
// - sgemm: gk's load4/store4 on f32 arrays are four scalar accesses, each index clamped by
//   Dawn's robustness (3 clamps for a 3-dimensional workgroup array); the variants keep the
//   workgroup tiles as vec4 arrays (one access, one clamp per index), flattened to one
//   dimension (one clamp), and the storage buffers as vec4 arrays too.
// - block_sum: WGSL has no float atomic, so the per-block atomicAdd is a compare-exchange
//   loop on the bits; the variants leave the atomic out (the floor), add the bits with an
//   integer atomicAdd (the native atomic's time: a wrong sum, for timing only), and back off
//   after a failed exchange.
//
// On the GPU machine: `source bench/webgpu-gpu-setup.sh && node bench/wgsl-variants.mjs`
// (GK_WGSL_VARIANTS_DUMP=1 prints the SPIR-V Dawn gives the driver for the generated sgemm and
// block_sum instead, from Dawn's dump_shaders). Without a GPU it runs tiny sizes on whatever adapter there
// is (GK_WGSL_BENCH_SMOKE=1), a check of the variants themselves.
import { appendFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { fmt, table, writeResult } from "./lib.mjs";

const require = createRequire(import.meta.url);
const SMOKE = process.env.GK_WGSL_BENCH_SMOKE === "1";
const LOG = process.env.GK_WGSL_VARIANTS_LOG;
const say = (line) => {
  console.log(line);
  if (LOG) appendFileSync(LOG, `${line}\n`);
};

const HEAD = `override gk_block_x: u32 = 1u;
struct P { M: i32, N: i32, K: i32, }
@group(0) @binding(0) var<uniform> gk_params: P;
`;

/** sgemm's body from gk's output, with the accessors the variants replace as functions. */
const SGEMM_MAIN = `
@compute @workgroup_size(gk_block_x, 1, 1)
fn main(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>) {
  let M: i32 = gk_params.M;
  let N: i32 = gk_params.N;
  let K: i32 = gk_params.K;
  let tx: i32 = i32(gk_local_id.x) % 16i;
  let ty: i32 = i32(gk_local_id.x) / 16i;
  let row0: i32 = i32(gk_group_id.y) * 128i;
  let col0: i32 = i32(gk_group_id.x) * 128i;
  let aRow: i32 = i32(gk_local_id.x) / 2i;
  let aCol: i32 = i32(gk_local_id.x) % 2i * 4i;
  let bRow: i32 = i32(gk_local_id.x) / 32i;
  let bCol: i32 = i32(gk_local_id.x) % 32i * 4i;
  var acc: array<array<vec4<f32>, 2>, 8>;
  var a: vec4<f32> = load4_A((row0 + aRow) * K + aCol);
  var b: vec4<f32> = load4_B(bRow * N + col0 + bCol);
  var stage: i32 = 0i;
  storeAs(0i, aCol, aRow, a.x);
  storeAs(0i, aCol + 1i, aRow, a.y);
  storeAs(0i, aCol + 2i, aRow, a.z);
  storeAs(0i, aCol + 3i, aRow, a.w);
  store4_Bs(0i, bRow, bCol, b);
  workgroupBarrier();
  for (var k0: i32 = 0i; k0 < K; k0 = k0 + 8i) {
    let more: bool = k0 + 8i < K;
    if (more) {
      a = load4_A((row0 + aRow) * K + k0 + 8i + aCol);
      b = load4_B((k0 + 8i + bRow) * N + col0 + bCol);
    }
    for (var k: i32 = 0i; k < 8i; k = k + 1i) {
      let a0: vec4<f32> = load4_As(stage, k, ty * 4i);
      let a1: vec4<f32> = load4_As(stage, k, 64i + ty * 4i);
      let b0: vec4<f32> = load4_Bs(stage, k, tx * 4i);
      let b1: vec4<f32> = load4_Bs(stage, k, 64i + tx * 4i);
      var ra = array<f32, 8>(a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w);
${Array.from({ length: 8 }, (_, m) => `      acc[${m}i][0i] = acc[${m}i][0i] + vec4<f32>(ra[${m}i]) * b0;\n      acc[${m}i][1i] = acc[${m}i][1i] + vec4<f32>(ra[${m}i]) * b1;`).join("\n")}
    }
    if (more) {
      let next: i32 = 1i - stage;
      storeAs(next, aCol, aRow, a.x);
      storeAs(next, aCol + 1i, aRow, a.y);
      storeAs(next, aCol + 2i, aRow, a.z);
      storeAs(next, aCol + 3i, aRow, a.w);
      store4_Bs(next, bRow, bCol, b);
      stage = next;
    }
    workgroupBarrier();
  }
${Array.from({ length: 8 }, (_, m) => `  {\n    let row: i32 = row0 + ${m < 4 ? `ty * 4i + ${m}i` : `60i + ty * 4i + ${m}i`};\n    store4_C(row * N + col0 + tx * 4i, acc[${m}i][0i]);\n    store4_C(row * N + col0 + 64i + tx * 4i, acc[${m}i][1i]);\n  }`).join("\n")}
}
`;

const SCALAR_STORAGE = `@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
fn load4_A(i: i32) -> vec4<f32> { return vec4<f32>(A[i], A[i + 1i], A[i + 2i], A[i + 3i]); }
fn load4_B(i: i32) -> vec4<f32> { return vec4<f32>(B[i], B[i + 1i], B[i + 2i], B[i + 3i]); }
fn store4_C(i: i32, v: vec4<f32>) { C[i] = v.x; C[i + 1i] = v.y; C[i + 2i] = v.z; C[i + 3i] = v.w; }
`;
const VEC4_STORAGE = `@group(0) @binding(1) var<storage, read> A: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> B: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> C: array<vec4<f32>>;
fn load4_A(i: i32) -> vec4<f32> { return A[i >> 2u]; }
fn load4_B(i: i32) -> vec4<f32> { return B[i >> 2u]; }
fn store4_C(i: i32, v: vec4<f32>) { C[i >> 2u] = v; }
`;
/** The tiles as gk declares them: f32 arrays of [2][8][128], load4 as four scalar loads. */
const SCALAR_TILES = `var<workgroup> As: array<array<array<f32, 128>, 8>, 2>;
var<workgroup> Bs: array<array<array<f32, 128>, 8>, 2>;
fn storeAs(i0: i32, i1: i32, i2: i32, v: f32) { As[i0][i1][i2] = v; }
fn store4_Bs(i0: i32, i1: i32, i2: i32, v: vec4<f32>) { Bs[i0][i1][i2] = v.x; Bs[i0][i1][i2 + 1i] = v.y; Bs[i0][i1][i2 + 2i] = v.z; Bs[i0][i1][i2 + 3i] = v.w; }
fn load4_As(i0: i32, i1: i32, i2: i32) -> vec4<f32> { return vec4<f32>(As[i0][i1][i2], As[i0][i1][i2 + 1i], As[i0][i1][i2 + 2i], As[i0][i1][i2 + 3i]); }
fn load4_Bs(i0: i32, i1: i32, i2: i32) -> vec4<f32> { return vec4<f32>(Bs[i0][i1][i2], Bs[i0][i1][i2 + 1i], Bs[i0][i1][i2 + 2i], Bs[i0][i1][i2 + 3i]); }
`;
/** The same tiles flattened to one f32 dimension: one clamp per access. */
const FLAT_TILES = `var<workgroup> As: array<f32, 2048>;
var<workgroup> Bs: array<f32, 2048>;
fn storeAs(i0: i32, i1: i32, i2: i32, v: f32) { As[(i0 * 8i + i1) * 128i + i2] = v; }
fn store4_Bs(i0: i32, i1: i32, i2: i32, v: vec4<f32>) { let i = (i0 * 8i + i1) * 128i + i2; Bs[i] = v.x; Bs[i + 1i] = v.y; Bs[i + 2i] = v.z; Bs[i + 3i] = v.w; }
fn load4_As(i0: i32, i1: i32, i2: i32) -> vec4<f32> { let i = (i0 * 8i + i1) * 128i + i2; return vec4<f32>(As[i], As[i + 1i], As[i + 2i], As[i + 3i]); }
fn load4_Bs(i0: i32, i1: i32, i2: i32) -> vec4<f32> { let i = (i0 * 8i + i1) * 128i + i2; return vec4<f32>(Bs[i], Bs[i + 1i], Bs[i + 2i], Bs[i + 3i]); }
`;
/** The tiles as vec4 arrays: load4 one access; a scalar store a component of one. */
const VEC4_TILES = `var<workgroup> As: array<array<array<vec4<f32>, 32>, 8>, 2>;
var<workgroup> Bs: array<array<array<vec4<f32>, 32>, 8>, 2>;
fn storeAs(i0: i32, i1: i32, i2: i32, v: f32) { As[i0][i1][i2 >> 2u][i2 & 3i] = v; }
fn store4_Bs(i0: i32, i1: i32, i2: i32, v: vec4<f32>) { Bs[i0][i1][i2 >> 2u] = v; }
fn load4_As(i0: i32, i1: i32, i2: i32) -> vec4<f32> { return As[i0][i1][i2 >> 2u]; }
fn load4_Bs(i0: i32, i1: i32, i2: i32) -> vec4<f32> { return Bs[i0][i1][i2 >> 2u]; }
`;
/** vec4 tiles flattened to one dimension. */
const FLAT_VEC4_TILES = `var<workgroup> As: array<vec4<f32>, 512>;
var<workgroup> Bs: array<vec4<f32>, 512>;
fn storeAs(i0: i32, i1: i32, i2: i32, v: f32) { As[(i0 * 8i + i1) * 32i + (i2 >> 2u)][i2 & 3i] = v; }
fn store4_Bs(i0: i32, i1: i32, i2: i32, v: vec4<f32>) { Bs[(i0 * 8i + i1) * 32i + (i2 >> 2u)] = v; }
fn load4_As(i0: i32, i1: i32, i2: i32) -> vec4<f32> { return As[(i0 * 8i + i1) * 32i + (i2 >> 2u)]; }
fn load4_Bs(i0: i32, i1: i32, i2: i32) -> vec4<f32> { return Bs[(i0 * 8i + i1) * 32i + (i2 >> 2u)]; }
`;

/** The generated shader: `gkc wgsl` of the example, its entry point renamed main. */
function generated(file, kernel) {
  const gkc = fileURLToPath(new URL("../bin/gkc.js", import.meta.url));
  const example = fileURLToPath(new URL(`../examples/${file}`, import.meta.url));
  return execFileSync(process.execPath, [gkc, "wgsl", example], { encoding: "utf8" }).replace(`fn ${kernel}(`, "fn main(");
}

/** The tile accessors written out where they are used (as WGSL's range analysis sees them: no function parameters). */
function inlineTiles(code) {
  return code
    .replace(/load4_(As|Bs)\(([^,()]+), ([^,()]+), ([^,()]+)\)/g, (_, a, i, j, k) => `vec4<f32>(${[0, 1, 2, 3].map((c) => `${a}[${i}][${j}][${k}${c ? ` + ${c}i` : ""}]`).join(", ")})`)
    .replace(/storeAs\(([^,()]+), ([^,()]+), ([^,()]+), ([^,()]+)\);/g, (_, i, j, k, v) => `As[${i}][${j}][${k}] = ${v};`);
}

/** SGEMM_MAIN with its two for loops written as gk wrote every loop before: loop { if !(c) { break; } ... continuing { step } }. */
const SGEMM_MAIN_LOOPS = SGEMM_MAIN.replace("for (var k0: i32 = 0i; k0 < K; k0 = k0 + 8i) {", "var k0: i32 = 0i;\n  loop {\n    if (!(k0 < K)) { break; }")
  .replace("for (var k: i32 = 0i; k < 8i; k = k + 1i) {", "var k: i32 = 0i;\n    loop {\n      if (!(k < 8i)) { break; }")
  .replace("\n    }\n    if (more) {\n      let next", "\n      continuing { k = k + 1i; }\n    }\n    if (more) {\n      let next")
  .replace("    workgroupBarrier();\n  }\n", "    workgroupBarrier();\n    continuing { k0 = k0 + 8i; }\n  }\n");

const SGEMM = [
  ["generated by gk", generated("sgemm.gk", "sgemm")],
  ["loop/break loops, accessors as functions (gk before)", HEAD + SCALAR_STORAGE + SCALAR_TILES + SGEMM_MAIN_LOOPS],
  ["loop/break loops, tile accesses written out", HEAD + SCALAR_STORAGE + SCALAR_TILES + inlineTiles(SGEMM_MAIN_LOOPS)],
  ["for loops, accessors as functions", HEAD + SCALAR_STORAGE + SCALAR_TILES + SGEMM_MAIN],
  ["for loops, tile accesses written out", HEAD + SCALAR_STORAGE + SCALAR_TILES + inlineTiles(SGEMM_MAIN)],
  ["tiles flattened to f32[2048]", HEAD + SCALAR_STORAGE + FLAT_TILES + SGEMM_MAIN],
  ["tiles as vec4 arrays [2][8][32]", HEAD + SCALAR_STORAGE + VEC4_TILES + SGEMM_MAIN],
  ["tiles as vec4[512]", HEAD + SCALAR_STORAGE + FLAT_VEC4_TILES + SGEMM_MAIN],
  ["storage as vec4 arrays, tiles as generated", HEAD + VEC4_STORAGE + SCALAR_TILES + SGEMM_MAIN],
  ["storage and tiles vec4[512]", HEAD + VEC4_STORAGE + FLAT_VEC4_TILES + SGEMM_MAIN],
].map(([name, code]) => ({ name, code }));

/** block_sum as gk generates it, its atomic replaced by ATOMIC. */
const blockSum = (atomic, helpers = "") => `override gk_block_x: u32 = 1u;
struct P { n: i32, }
@group(0) @binding(0) var<uniform> gk_params: P;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;
@group(0) @binding(3) var<storage, read_write> total: array<atomic<u32>>;
var<workgroup> buf: array<f32, 256>;
fn gk_ftz_f32(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  return select(x, bitcast<f32>(b & 0x80000000u), (b & 0x7f800000u) == 0u);
}
${helpers}
@compute @workgroup_size(gk_block_x, 1, 1)
fn main(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>) {
  let n: i32 = gk_params.n;
  let tid: i32 = i32(gk_local_id.x);
  let i: i32 = i32(gk_group_id.x * gk_block_x + gk_local_id.x);
  buf[tid] = select(0.0f, x[i], i < n);
  workgroupBarrier();
  for (var stride: i32 = 128i; stride > 0i; stride = stride >> 1u) {
    if (tid < stride) { buf[tid] = buf[tid] + buf[tid + stride]; }
    workgroupBarrier();
  }
  if (tid == 0i) {
    partial[i32(gk_group_id.x)] = buf[0i];
    ${atomic}
  }
}
`;
const CAS = `fn add_total(v: f32) -> f32 {
  var old = atomicLoad(&total[0]);
  loop {
    let r = atomicCompareExchangeWeak(&total[0], old, bitcast<u32>(gk_ftz_f32(gk_ftz_f32(bitcast<f32>(old)) + gk_ftz_f32(v))));
    if (r.exchanged) { return bitcast<f32>(old); }
    old = r.old_value;
  }
}`;
/** After each failed exchange, a wait that doubles (up to 2^10 steps of a dependent multiply): fewer exchanges in flight at once. */
const CAS_BACKOFF = `fn add_total(v: f32) -> f32 {
  var old = atomicLoad(&total[0]);
  var wait = 1u;
  var h = old;
  loop {
    let r = atomicCompareExchangeWeak(&total[0], old, bitcast<u32>(gk_ftz_f32(gk_ftz_f32(bitcast<f32>(old)) + gk_ftz_f32(v))));
    if (r.exchanged) { return bitcast<f32>(old); }
    old = r.old_value;
    for (var s = 0u; s < wait; s = s + 1u) { h = h * 1664525u + 1013904223u; }
    // Never true in practice; a wrong expected value would only fail the next exchange. It keeps the wait's work live.
    if (h == 0x12345678u) { old = 0u; }
    wait = min(wait * 2u, 1024u);
  }
}`;
const BLOCK_SUM = [
  ["generated by gk", generated("reduce.gk", "block_sum")],
  ["compare-exchange loop", blockSum("_ = add_total(buf[0i]);", CAS)],
  ["compare-exchange loop, backing off", blockSum("_ = add_total(buf[0i]);", CAS_BACKOFF)],
  ["no atomic (partial sums only)", blockSum("")],
  ["integer atomicAdd of the bits (wrong sum; timing only)", blockSum("atomicAdd(&total[0], bitcast<u32>(buf[0i]));")],
];

const rand = (n, seed) => Float32Array.from({ length: n }, (_, i) => (((Math.imul(i + 1, 2654435761) ^ seed) >>> 8) / 2 ** 24) * 2 - 1);

async function openDawn(flags) {
  const { create, globals } = require("webgpu");
  Object.assign(globalThis, globals);
  const gpu = create(flags);
  const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  if (!adapter) throw new Error("no WebGPU adapter");
  const requiredLimits = {};
  for (const k of ["maxStorageBufferBindingSize", "maxBufferSize", "maxComputeWorkgroupStorageSize"]) requiredLimits[k] = adapter.limits[k];
  const device = await adapter.requestDevice({ requiredLimits });
  return { gpu, device, name: `${adapter.info?.vendor ?? ""} ${adapter.info?.description ?? ""}`.trim() };
}

function buffer(device, data, usage) {
  const b = device.createBuffer({ size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: usage | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  device.queue.writeBuffer(b, 0, data);
  return b;
}

async function read(device, buf, n) {
  const staging = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, staging, 0, n * 4);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return out;
}

/** ms per launch of `code` (REPS launches in one submit each, then a wait), and the output buffer's contents. */
async function time(dev, code, { params, inputs, output, outLen, grid, block, reps }) {
  const { device } = dev;
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === "error");
  if (errors.length) throw new Error(errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join("; "));
  // An explicit layout: a variant that leaves a binding unused still takes the same bind group.
  const kinds = ["uniform", ...inputs.map(() => "read-only-storage"), "storage", ...(output.extra ? ["storage"] : [])];
  const bgl = device.createBindGroupLayout({ entries: kinds.map((type, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } })) });
  const layout = device.createPipelineLayout({ bindGroupLayouts: [bgl] });
  const pipeline = await device.createComputePipelineAsync({ layout, compute: { module, entryPoint: "main", constants: { gk_block_x: block } } });
  const ubuf = buffer(device, new Int32Array([...params, 0, 0, 0, 0].slice(0, 4)), GPUBufferUsage.UNIFORM);
  const bufs = inputs.map((d) => buffer(device, d, GPUBufferUsage.STORAGE));
  const out = buffer(device, new Float32Array(outLen), GPUBufferUsage.STORAGE);
  const extra = output.extra ? buffer(device, new Float32Array(4), GPUBufferUsage.STORAGE) : undefined;
  const entries = [ubuf, ...bufs, out, ...(extra ? [extra] : [])].map((b, i) => ({ binding: i, resource: { buffer: b } }));
  const bind = device.createBindGroup({ layout: bgl, entries });
  const launch = () => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(...grid);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  launch();
  await device.queue.onSubmittedWorkDone();
  const result = await read(device, out, outLen);
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) launch();
  await device.queue.onSubmittedWorkDone();
  const ms = (performance.now() - t0) / reps;
  for (const b of [ubuf, ...bufs, out, ...(extra ? [extra] : [])]) b.destroy();
  return { ms, result };
}

function close(a, b) {
  let scale = 0;
  for (const v of a) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= 1e-4 * scale)) return `differs at ${i}: ${a[i]} vs ${b[i]}`;
  return "yes";
}

/** GK_WGSL_VARIANTS_DUMP=1: the SPIR-V Dawn hands the driver for the generated sgemm and block_sum (dump_shaders logs it; Dawn's Node binding prints the log), nothing timed. */
async function dump() {
  const dev = await openDawn(["enable-dawn-features=dump_shaders"]);
  for (const code of [SGEMM[0].code, SGEMM[2].code, BLOCK_SUM[0][1]]) {
    const module = dev.device.createShaderModule({ code });
    await dev.device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "main", constants: { gk_block_x: 256 } } });
  }
  dev.device.destroy();
}

async function main() {
  if (process.env.GK_WGSL_VARIANTS_DUMP === "1") return dump();
  const rows = [];
  const sg = SMOKE ? 128 : 4096;
  const blocks = SMOKE ? 64 : 65280;
  const A = rand(sg * sg, 11);
  const B = rand(sg * sg, 12);
  const X = rand(blocks * 256, 3);
  for (const robust of [true, false]) {
    let dev;
    try {
      dev = await openDawn(["disable-dawn-features=timestamp_quantization", ...(robust ? [] : ["enable-dawn-features=disable_robustness"])]);
    } catch (e) {
      say(`wgsl-variants: no WebGPU device (${e.message}); skipped`);
      return;
    }
    say(`wgsl-variants: ${dev.name}, robustness ${robust ? "on" : "off"}`);
    const groups = [
      ["sgemm", SGEMM, { params: [sg, sg, sg], inputs: [A, B], output: {}, outLen: sg * sg, grid: [sg / 128, sg / 128, 1], block: 256, reps: SMOKE ? 2 : 6, work: (2 * sg ** 3) / 1e9, unit: "TFLOP/s" }],
      ["block_sum", BLOCK_SUM.map(([name, code]) => ({ name, code })), { params: [blocks * 256], inputs: [X], output: { extra: true }, outLen: blocks, grid: [blocks, 1, 1], block: 256, reps: SMOKE ? 2 : 3, work: (4 * blocks * 256) / 1e6, unit: "GB/s" }],
    ];
    for (const [kernel, variants, cfg] of groups) {
      let first;
      for (const v of variants) {
        try {
          const { ms, result } = await time(dev, v.code, cfg);
          first ??= result;
          const row = { kernel, variant: v.name, robustness: robust, ms, figure: cfg.work / ms, unit: cfg.unit, agree: close(first, result) };
          rows.push(row);
          say(`wgsl-variants: ${kernel}, ${v.name}, robustness ${robust ? "on" : "off"}: ${fmt(ms)} ms, ${fmt(row.figure)} ${cfg.unit}, agrees: ${row.agree}`);
        } catch (e) {
          rows.push({ kernel, variant: v.name, robustness: robust, error: String(e.message ?? e).split("\n")[0] });
          say(`wgsl-variants: ${kernel}, ${v.name}: error: ${rows.at(-1).error}`);
        }
        writeResult("wgsl-variants", { device: dev.name, smoke: SMOKE, rows });
      }
    }
    dev.device.destroy();
  }
  say(table("WGSL variants of sgemm and block_sum (ms per launch)", ["kernel", "variant", "robustness", "ms", "figure", "unit", "agree"], rows.map((r) => [r.kernel, r.variant, r.robustness ? "on" : "off", r.ms ?? "error", r.figure ?? "-", r.unit ?? "", r.agree ?? r.error])));
}

await main();
