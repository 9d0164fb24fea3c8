/** `gkc ir FILE [--after PASS]`: the typed IR in its text form. */
import { printModule } from "../../ir/print.js";
import { frontEnd, PASSES } from "../../pipeline.js";
import { EXIT, report, UsageError, type Io } from "../io.js";
import { parseArgs } from "node:util";
import { flags } from "../flags.js";

export const help = `gkc ir FILE [--after PASS]

Prints the typed device IR of FILE: every operator with its type (+.f32), every
constant with its type (2.5:f32), every conversion as an explicit cast.

  --after PASS   the IR after this pass: check (straight from the checker, before any
                 pass) or ${PASSES.map((p) => p.name).join(", ")} (default: after the last pass)`;

export function ir(args: string[], io: Io): number {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { after: { type: "string" } } }));
  if (positionals.length !== 1) throw new UsageError("gkc ir takes one .gk file");
  const after = values.after;
  if (after !== undefined && after !== "check" && !PASSES.some((p) => p.name === after)) {
    throw new UsageError(`unknown pass '${after}'; the passes are: check, ${PASSES.map((p) => p.name).join(", ")}`);
  }
  const r = frontEnd(positionals[0]!, { after });
  const failed = report(io, r.diagnostics, r.sources);
  if (failed || !r.ir) return EXIT.failed;
  io.out(printModule(r.ir));
  return EXIT.ok;
}
