// One call each of gk's library sum, max and inclusive scan (f32, 2^26 elements) after one
// warm-up call, for a profiler to pick out by kernel name (issue 23's ncu runs, e.g.
// ncu -k regex:'scanPacked|reduce' --launch-skip 3 node bench/issue23_gk.mjs). Prints the results.
import { openDevice, stdlib } from "../dist/index.js";

const gpu = await openDevice();
if (gpu.kind !== "cuda") {
  console.log(`issue23_gk: skipped (no GPU: ${gpu.reason})`);
  process.exit(0);
}
const std = stdlib(gpu);
const N = 1 << 26;
const host = new Float32Array(N);
for (let i = 0; i < N; i++) host[i] = ((Math.imul(i ^ (i >>> 13), 2654435761) >>> 8) / 2 ** 24);
const x = await gpu.array(host);
const y = await gpu.zeros("f32", N);
for (let round = 0; round < 2; round++) {
  const sum = await std.sum(x);
  const max = await std.max(x);
  await std.scan(x, { out: y });
  await gpu.sync();
  console.log(`round ${round}: sum ${sum}, max ${max}, scan's last ${(await y.view(N - 1, 1).read())[0]}`);
}
await gpu.close();
