/** `gkc wgsl FILE`: the generated WGSL, for WebGPU. */
import { parseArgs } from "node:util";
import { emitWgsl } from "../../codegen/wgsl/index.js";
import { WGSL_TARGET } from "../../codegen/wgsl/target.js";
import { frontEnd } from "../../pipeline.js";
import { gkVersion } from "../../cacheFolder.js";
import { flags } from "../flags.js";
import { EXIT, report, UsageError, type Io } from "../io.js";

export const help = `gkc wgsl FILE [--kernel K]

Prints the WGSL that gk generates for FILE (spec/wgsl.md): one @compute entry point per
kernel, with its uniform block, storage buffers and workgroup arrays, the device functions
it calls and the helpers that give gk's meaning where WGSL's differs. What WGSL cannot
express (f64, 64-bit and 8/16-bit integers, f16, warp operations, ...) is refused, located.

  --kernel K  print the layout of kernel K's bindings (JSON, what a WebGPU runtime reads)
              after the shader`;

export function wgsl(args: string[], io: Io): number {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { kernel: { type: "string" } } }));
  if (positionals.length !== 1) throw new UsageError("gkc wgsl takes one .gk file");
  const r = frontEnd(positionals[0]!, { target: WGSL_TARGET });
  if (report(io, r.diagnostics, r.sources) || !r.ir) return EXIT.failed;
  const out = emitWgsl(r.ir, { gkVersion: gkVersion() });
  const k = values.kernel === undefined ? undefined : out.kernels.get(values.kernel);
  if (values.kernel !== undefined && !k) throw new UsageError(`${positionals[0]} has no kernel ${values.kernel} (its kernels: ${[...out.kernels.keys()].join(", ")})`);
  io.out(out.source);
  if (k) io.out(JSON.stringify(k, null, 2));
  return EXIT.ok;
}
