/** `gkc run FILE`: run the file's launch statements (or one launch given by flags) and print the outputs. */
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { lineColOf } from "../../diagnostics/source.js";
import { memoryHost, nodeHost } from "../../load/program.js";
import { frontEnd } from "../../pipeline.js";
import { formatElements, jsonElements } from "../../runtime/format.js";
import { runLaunch, type LaunchOutcome } from "../../runtime/launches.js";
import { cacheRoot } from "../../build/cache/layout.js";
import { createRunner } from "../../runtime/runner.js";
import { isDeviceChoice, selectTarget, type Target } from "../../runtime/target.js";
import { flags, parseDims } from "../flags.js";
import { EXIT, report, UsageError, type Io } from "../io.js";
import { diagnosticsOf } from "../runtimeErrors.js";

export const help = `gkc run FILE [options]

Runs the launch statements of FILE in order, on a GPU when one and nvcc are usable,
else on the CPU simulator (stderr says which), and prints every array each kernel may
write (its non-readonly global parameters) by name:
  out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]
  vs = [[1, 2, 3, 4], [5, 6, 7, 8]]                    (vectors)
  nodes = [{ start: 0, edges: 2 }, { start: 2, edges: 1 }]   (structs)
A launch that fails stops the run: the outputs of the launches before it are printed,
then its error (exit status 1).

  --device auto|cuda|cpu  where to run (default auto); cuda fails if no GPU is usable
  --check-races           run on the simulator and report data races (GK8040): two
                          accesses of different threads to one element, one a write, that
                          no barrier(), syncWarp() or release/acquire orders (spec/memory-model.md)
  --json                  print {"launches":[{"kernel", "device", "outputs":{name:[...]},
                          "kernel_ms"}]}; NaN, Infinity, -0 and 64-bit integers beyond
                          2^53 are strings so values stay exact; vectors are arrays of
                          their lanes, structs objects by field; after a failed launch,
                          also "error":{"code", "message"}
  --all                   print every element (default: the first 64 of each array;
                          --json always prints every element)
  --no-fma                build without FMA contraction (the default contracts, as nvcc
                          does), so float results equal the simulator's bit for bit
  --kernel K              run kernel K instead of the file's launch statements (an
                          instance of a generic kernel by its name: 'reduce<f32, 256>'), with:
  --grid X[,Y[,Z]]        grid size (default 1)
  --block X[,Y[,Z]]       block size (default 1)
  --arg name=value        one per parameter, and one per constant array the kernel reads;
                          value as in a launch statement:
                          --arg n=8 --arg x=iota(8) --arg y='[1, 2, 3]' --arg out='zeros(8)'
                          --arg v='f32x4(1, 2, 3, 4)' --arg p='{ x: 1, y: 2 }'
  --shared name=length    the length (elements) of a dynamic shared array (shared buf: f32[];),
                          one per such array: --shared buf=256
  --gpu N                 use GPU N (default 0)`;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        device: { type: "string", default: "auto" },
        "check-races": { type: "boolean" },
        json: { type: "boolean" },
        all: { type: "boolean" },
        "no-fma": { type: "boolean" },
        kernel: { type: "string" },
        grid: { type: "string" },
        block: { type: "string" },
        arg: { type: "string", multiple: true },
        shared: { type: "string", multiple: true },
        gpu: { type: "string" },
      },
    }),
  );
  if (positionals.length !== 1) throw new UsageError("gkc run takes one .gk file");
  const file = positionals[0]!;
  const checkRaces = values["check-races"] === true;
  if (checkRaces && values.device === "cuda") throw new UsageError("--check-races runs on the simulator: use it with --device cpu (or auto)");
  const device = checkRaces ? "cpu" : values.device!;
  if (!isDeviceChoice(device)) throw new UsageError(`--device must be auto, cuda or cpu (got '${device}')`);
  if (!values.kernel && (values.grid || values.block || values.arg || values.shared)) throw new UsageError("--grid, --block, --arg and --shared go with --kernel K");
  const gpu = values.gpu === undefined ? 0 : Number(values.gpu);
  if (!Number.isInteger(gpu) || gpu < 0) throw new UsageError(`--gpu takes a GPU index (got '${values.gpu}')`);

  const fe = values.kernel ? frontEndForFlags(file, values.kernel, values.grid, values.block, values.arg ?? [], values.shared ?? []) : frontEnd(file);
  if (report(io, fe.diagnostics, fe.sources) || !fe.ir) return EXIT.failed;
  const ir = fe.ir;
  if (ir.launches.length === 0) {
    io.err(`${file} has no launch statements: add one (launch k(...) grid(...) block(...);) or run a kernel with --kernel K --arg ...`);
    return EXIT.failed;
  }

  const target = await selectTarget(device, { device: gpu, processEnv: io.env });
  io.err(`gkc: ${describeTarget(target)}`);
  const runner = createRunner(ir, fe.sources, target, { fmad: !values["no-fma"], cacheRoot: cacheRoot(io.env), sim: { checkRaces }, onWarning: (d) => report(io, [d], fe.sources) });
  // Launches run in order until one fails; what the earlier ones computed is still printed.
  const outcomes: LaunchOutcome[] = [];
  let failure: readonly Diagnostic[] | undefined;
  try {
    for (const l of ir.launches) outcomes.push(await runLaunch(ir, l, runner));
  } catch (e) {
    failure = diagnosticsOf(e);
    if (!failure) throw e;
  } finally {
    await runner.close();
  }

  if (values.json) {
    const launches = outcomes.map((o) => ({
      kernel: o.kernel,
      device: o.device,
      outputs: Object.fromEntries([...o.outputs].map(([k, v]) => [k, jsonElements(v.elem, v.data)])),
      kernel_ms: o.kernelMs,
    }));
    const error = failure?.[0] && { code: failure[0].code, message: failure[0].message };
    io.out(JSON.stringify({ launches, ...(error && { error }) }));
  } else {
    const limit = values.all ? Infinity : 64;
    for (const o of outcomes) {
      if (ir.launches.length > 1) {
        const src = fe.sources.get(o.span.file);
        const at = src ? `${o.span.file}:${lineColOf(src, o.span.start).line}` : o.span.file;
        io.out(`# ${o.kernel} (${at})`);
      }
      for (const [name, v] of o.outputs) io.out(`${name} = ${formatElements(v.elem, v.data, limit)}`);
    }
  }
  if (failure) {
    report(io, failure, fe.sources);
    return EXIT.failed;
  }
  return EXIT.ok;
}

export function describeTarget(t: Target): string {
  if (t.kind === "cuda") return `running on GPU ${t.device.index}: ${t.device.name} (${t.arch})`;
  return t.reason ? `no GPU: ${t.reason}; running on the CPU simulator` : "running on the CPU simulator";
}

/**
 * `--kernel K --arg ...`: a launch statement written from the flags, in a small in-memory
 * file next to FILE that imports K, so the checker validates it like any launch and its
 * diagnostics quote the flags.
 */
function frontEndForFlags(file: string, kernel: string, grid: string | undefined, block: string | undefined, argFlags: string[], sharedFlags: string[]) {
  const g = grid ? parseDims(grid, "grid") : [1, 1, 1];
  const b = block ? parseDims(block, "block") : [1, 1, 1];
  const pair = (flag: string, what: string) => (a: string) => {
    const eq = a.indexOf("=");
    if (eq <= 0) throw new UsageError(`${flag} takes ${what} (got '${a}')`);
    return `${a.slice(0, eq).trim()} = ${a.slice(eq + 1).trim()}`;
  };
  const args = argFlags.map(pair("--arg", "name=value"));
  const shared = sharedFlags.map(pair("--shared", "name=length"));
  // A kernel's name, or an instance's: the name, then <...> of names, integers and commas.
  const spelled = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<[A-Za-z0-9_,\s-]*>)?\s*$/.exec(kernel);
  if (!spelled) throw new UsageError(`--kernel takes a kernel name, or an instance's as in 'reduce<f32, 256>' (got '${kernel}')`);
  const [, name, instance = ""] = spelled;
  const dir = path.dirname(file);
  const virtual = path.join(dir, "<command line>.gk");
  const clause = shared.length ? ` shared(${shared.join(", ")})` : "";
  const text = `import { ${name} } from "./${path.basename(file)}";\nlaunch ${name}${instance}(${args.join(", ")}) grid(${g.join(", ")}) block(${b.join(", ")})${clause};\n`;
  return frontEnd(virtual, { host: memoryHost({ [virtual]: text }, nodeHost) });
}
