/** `gkc devices`: the GPUs gk can use, or why there are none; and the WebGPU adapter, or why there is none. */
import { parseArgs } from "node:util";
import { listDevices } from "../../runtime/launcher.js";
import { findNvcc } from "../../build/nvcc.js";
import { flags } from "../flags.js";
import { EXIT, UsageError, type Io } from "../io.js";

export const help = `gkc devices [--json]

Lists the CUDA GPUs the launcher finds (index, name, architecture, memory), or says
why there are none (no launcher built, no CUDA driver, no GPU), and whether nvcc is
available to build kernels; then the WebGPU adapter that --device webgpu would use
(Dawn's, from the optional webgpu package), or why there is none.`;

export async function devices(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean" } } }));
  if (positionals.length) throw new UsageError("gkc devices takes no arguments");
  const r = await listDevices();
  let nvcc: string | undefined;
  try {
    nvcc = findNvcc(io.env).path;
  } catch {
    nvcc = undefined;
  }
  const webgpu = await webgpuAdapter();
  if (values.json) {
    io.out(JSON.stringify({ ...r, nvcc: nvcc ?? null, webgpu }, null, 2));
    return EXIT.ok;
  }
  if (!r.ok) io.out(`no GPU: ${r.message}`);
  else {
    for (const d of r.devices) {
      const gib = (d.totalMemBytes / 2 ** 30).toFixed(1);
      io.out(`${d.index}: ${d.name} (${d.arch}, ${d.multiprocessorCount} SMs, ${gib} GiB)`);
    }
  }
  io.out(nvcc ? `nvcc: ${nvcc}` : "nvcc: not found (install the CUDA toolkit or set GK_NVCC)");
  io.out(r.ok && nvcc ? "kernels run on the GPU" : "kernels run on the CPU simulator");
  io.out(webgpu.ok ? `webgpu: ${webgpu.adapter} (--device webgpu)` : `webgpu: none: ${webgpu.reason}`);
  return EXIT.ok;
}

/** The WebGPU adapter --device webgpu would use, asked for and let go, or why there is none. */
async function webgpuAdapter(): Promise<{ ok: true; adapter: string } | { ok: false; reason: string }> {
  const { requestWebGpu } = await import("../../runtime/webgpu/open.js");
  try {
    const h = await requestWebGpu();
    h.device.destroy();
    return { ok: true, adapter: h.adapterName };
  } catch (e) {
    return { ok: false, reason: (e instanceof Error ? e.message : String(e)).replace(/^GK\d+: /, "") };
  }
}
