/** `gkc cuda FILE`: the generated CUDA C++. */
import { parseArgs } from "node:util";
import { emitCuda } from "../../codegen/cuda/index.js";
import { frontEnd } from "../../pipeline.js";
import { gkVersion } from "../../cacheFolder.js";
import { flags } from "../flags.js";
import { EXIT, report, UsageError, type Io } from "../io.js";

export const help = `gkc cuda FILE [--no-line]

Prints the CUDA C++ that gk generates for FILE: one extern "C" __global__ function per
kernel, __device__ functions for device_fns, with #line directives that point nvcc's
messages and profilers at the .gk lines.

  --no-line   leave out the #line directives`;

export function cuda(args: string[], io: Io): number {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { "no-line": { type: "boolean" } } }));
  if (positionals.length !== 1) throw new UsageError("gkc cuda takes one .gk file");
  const r = frontEnd(positionals[0]!);
  if (report(io, r.diagnostics, r.sources) || !r.ir) return EXIT.failed;
  io.out(emitCuda(r.ir, { sources: r.sources, lineDirectives: !values["no-line"], gkVersion: gkVersion() }).source);
  return EXIT.ok;
}
