// The page: a WebGPU device where the browser has one (navigator.gpu), else gk's simulator;
// then the imported .gk module's kernel runs on it, and the page shows which device ran it
// (#device) and the result (#result, as JSON: test/browser reads it; { error } if it failed).
import { configure, openDevice } from "gk";

const show = (device: string, result: unknown) => {
  document.getElementById("device")!.textContent = device;
  document.getElementById("result")!.textContent = JSON.stringify(result);
};

try {
  const webgpu = "gpu" in navigator && (await navigator.gpu.requestAdapter()) !== null;
  // Set before the .gk module is evaluated: it runs on the device configured here.
  configure({ device: openDevice({ device: webgpu ? "webgpu" : "cpu" }) });
  const { saxpy } = await import("./saxpy.gk");

  const n = 1024;
  const x = Float32Array.from({ length: n }, (_, i) => i);
  const y = new Float32Array(n).fill(1);
  const out = new Float32Array(n);
  const t0 = performance.now();
  await saxpy({ grid: n / 256, block: 256 }, { n, alpha: 2, x, y, out });
  const ms = Math.round(performance.now() - t0);
  show(webgpu ? "ran on WebGPU (navigator.gpu)" : "no WebGPU in this browser: ran on gk's CPU simulator", { device: webgpu ? "webgpu" : "cpu", first: [...out.slice(0, 4)], last: out[n - 1], ms });
} catch (e) {
  show("failed", { error: e instanceof Error ? e.message : String(e) });
}
