/** `gkc build FILE`: PTX and cubin through the kernel cache, optionally copied to a folder. */
import { mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { replaceFile } from "../../load/outputFile.js";
import { quotePath } from "../../load/sourceFiles.js";
import { frontEnd } from "../../pipeline.js";
import { buildModule } from "../../build/build.js";
import { cacheRoot } from "../../build/cache.js";
import { flags } from "../flags.js";
import { EXIT, report, UsageError, type Io } from "../io.js";
import { printRuntimeError } from "../runtimeErrors.js";

export const help = `gkc build FILE [--arch sm_XX] [--out DIR] [--no-fma]

Generates CUDA for FILE and builds it with nvcc (-O3 -lineinfo) into PTX and a cubin,
through the kernel cache: a build that exists is reused, not rebuilt. Prints the paths
of the .cu, .ptx and .cubin in the cache, or copies them into DIR. Each nvcc run may take
$GK_NVCC_TIMEOUT seconds (default 300; 0: no limit).

  --arch sm_XX   target architecture (default: the GPU on this machine, else sm_90)
  --out DIR      write NAME.cu, NAME.ptx and NAME.cubin into DIR (as regular files,
                 replaced whole; where a symlink or a folder stands, gkc build stops)
  --no-fma       build without FMA contraction (--fmad=false; the default contracts)`;

export async function build(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(() =>
    parseArgs({ args, allowPositionals: true, options: { arch: { type: "string" }, out: { type: "string" }, "no-fma": { type: "boolean" } } }),
  );
  if (positionals.length !== 1) throw new UsageError("gkc build takes one .gk file");
  if (values.arch !== undefined && !/^sm_[0-9]{2,3}[a-z]?$/.test(values.arch)) throw new UsageError(`--arch takes an architecture like sm_90 (got '${values.arch}')`);
  const file = positionals[0]!;
  const r = frontEnd(file);
  if (report(io, r.diagnostics, r.sources) || !r.ir) return EXIT.failed;
  let arch = values.arch;
  if (!arch) {
    // The device layer only where no --arch is given: a build for a named architecture needs no GPU.
    const { openDevice } = await import("../../runtime/device/device.js");
    const gpu = await openDevice();
    arch = gpu.info?.arch ?? "sm_90";
    await gpu.close();
  }
  try {
    const b = await buildModule(r.ir, r.sources, { arch, fmad: !values["no-fma"], cacheRoot: cacheRoot(io.env), onWarning: (d) => report(io, [d], r.sources) });
    io.err(`gkc: ${b.hit ? "cache hit" : `built with nvcc in ${Math.round(b.timings.nvccMs ?? 0)} ms`} (${arch}, key ${b.key.slice(0, 12)})`);
    if (values.out) {
      const base = path.basename(file).replace(/\.gk$/, "");
      mkdirSync(values.out, { recursive: true });
      for (const [from, ext] of [[b.cu, "cu"], [b.ptx, "ptx"], [b.cubin, "cubin"]] as const) {
        const to = path.join(values.out, `${base}.${ext}`);
        // A file of the cache's, read as it was built (the cache checks its entries), and written only as a regular file of DIR's.
        const failed = replaceFile(to, readFileSync(from));
        if (failed) {
          io.err(`gkc build: cannot write ${quotePath(to)}: ${failed}; --out writes only regular files (remove what stands there, or choose another folder)`);
          return EXIT.failed;
        }
        io.out(to);
      }
    } else {
      io.out([b.cu, b.ptx, b.cubin].join("\n"));
    }
    return EXIT.ok;
  } catch (e) {
    if (printRuntimeError(io, e, r.sources)) return EXIT.failed;
    throw e;
  }
}
