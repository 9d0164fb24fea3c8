/** `gkc run FILE`: run the file's launch statements (or one launch given by flags) and print the outputs, with progress on a terminal. */
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { lineColOf } from "../../diagnostics/source.js";
import { memoryHost, nodeHost } from "../../load/program.js";
import { quotePath } from "../../load/sourceFiles.js";
import { isOneExpression } from "../../parser/index.js";
import { codeLiteral } from "../../util.js";
import { frontEnd } from "../../pipeline.js";
import { formatElementsParts, jsonElementsParts } from "../../runtime/format.js";
import { runLaunch, type LaunchOutcome } from "../../runtime/launches.js";
import { cacheRoot } from "../../cacheFolder.js";
import { isDeviceChoice, openDevice, type GpuDevice } from "../../runtime/device/device.js";
import { createRunner } from "../../runtime/runner.js";
import { flags, parseDims } from "../flags.js";
import { EXIT, printParts, report, UsageError, type Io } from "../io.js";
import { diagnosticsOf } from "../runtimeErrors.js";

export const help = `gkc run FILE [options]

Runs the launch statements of FILE (a .gk file) in order, or one kernel given by
--kernel K (of a .gk file or a TypeScript kernel file: .ts, .mts, .cts), on a GPU when
one and nvcc are usable, else on the CPU simulator (stderr says which), and prints every
array each kernel may write (its non-readonly global parameters) by name (the GPU is
opened as openDevice() opens it: in-process where the addon is built, else, or with
GK_ISOLATION=process, in a gpu_launcher process):
  out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]
  vs = [[1, 2, 3, 4], [5, 6, 7, 8]]                    (vectors)
  nodes = [{ start: 0, edges: 2 }, { start: 2, edges: 1 }]   (structs)
A launch that fails stops the run: the outputs of the launches before it are printed,
then its error (exit status 1).

  --device auto|cuda|cpu|webgpu
                          where to run (default auto); cuda fails if no GPU is usable;
                          webgpu runs the kernels' WGSL on a WebGPU device (in Node,
                          Dawn's: npm install webgpu, and a Vulkan driver) and fails
                          if there is none; programs WGSL cannot express are refused
                          (GK7008), and --no-fma, --gpu do not apply
  --check-races           run on the simulator and report data races (GK8040): two
                          accesses of different threads to one element, one a write, that
                          no barrier(), syncWarp() or release/acquire orders (spec/memory-model.md)
  --json                  print {"launches":[{"kernel", "device", "outputs":{name:[...]},
                          "kernel_ms"}]}; NaN, Infinity, -0 and 64-bit integers beyond
                          2^53 are strings so values stay exact; vectors are arrays of
                          their lanes, structs objects by field; after a failed launch,
                          also "error":{"code", "message"}
  --all                   print every element (default: the first 64 of each array;
                          --json always prints every element); an output of any size is
                          written as it is made, never held whole
  --no-fma                build without FMA contraction (the default contracts, as nvcc
                          does), so float results equal the simulator's bit for bit
  --kernel K              run kernel K instead of the file's launch statements (an
                          instance of a generic kernel by its name: 'reduce<f32, 256>'), with:
  --grid X[,Y[,Z]]        grid size (default 1)
  --block X[,Y[,Z]]       block size (default 1)
  --arg name=value        one per parameter, and one per constant array the kernel reads;
                          value one expression, as in a launch statement (no comment):
                          --arg n=8 --arg x=iota(8) --arg y='[1, 2, 3]' --arg out='zeros(8)'
                          --arg v='f32x4(1, 2, 3, 4)' --arg p='{ x: 1, y: 2 }'
  --shared name=length    the length (elements) of a dynamic shared array (shared buf: f32[];),
                          one per such array: --shared buf=256
  --gpu N                 use GPU N (default 0)
  --steps-per-thread N    on the simulator, the loop iterations each thread may take
                          before GK8004 ("does this loop ever end?"); default 10^6 (a
                          launch of T threads takes at most 10^6 x max(T, 1000), and by
                          default at most 10^10), or GK_STEPS_PER_THREAD

On a terminal, a simulation or an nvcc build that takes over a second shows its
progress on stderr (blocks done of all).`;

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
        "steps-per-thread": { type: "string" },
      },
    }),
  );
  if (positionals.length !== 1) throw new UsageError("gkc run takes one file: a .gk file, or a TypeScript kernel file with --kernel K");
  const file = positionals[0]!;
  const checkRaces = values["check-races"] === true;
  if (checkRaces && (values.device === "cuda" || values.device === "webgpu")) throw new UsageError("--check-races runs on the simulator: use it with --device cpu (or auto)");
  const device = checkRaces ? "cpu" : values.device!;
  if (!isDeviceChoice(device)) throw new UsageError(`--device must be auto, cuda, cpu or webgpu (got '${device}')`);
  if (!values.kernel && (values.grid || values.block || values.arg || values.shared)) throw new UsageError("--grid, --block, --arg and --shared go with --kernel K");
  const gpu = values.gpu === undefined ? 0 : Number(values.gpu);
  if (!Number.isInteger(gpu) || gpu < 0) throw new UsageError(`--gpu takes a GPU index (got '${values.gpu}')`);
  const stepsFlag = values["steps-per-thread"] ?? io.env.GK_STEPS_PER_THREAD?.trim();
  const stepsPerThread = stepsFlag === undefined || stepsFlag === "" ? undefined : Number(stepsFlag);
  if (stepsPerThread !== undefined && !(Number.isSafeInteger(stepsPerThread) && stepsPerThread >= 1)) {
    throw new UsageError(`${values["steps-per-thread"] !== undefined ? "--steps-per-thread" : "GK_STEPS_PER_THREAD"} takes a whole number of loop iterations, 1 or more (got '${stepsFlag}')`);
  }

  const fe = values.kernel ? frontEndForFlags(file, values.kernel, values.grid, values.block, values.arg ?? [], values.shared ?? []) : frontEnd(file);
  if (report(io, fe.diagnostics, fe.sources) || !fe.ir) return EXIT.failed;
  const ir = fe.ir;
  if (ir.launches.length === 0) {
    const ts = !file.endsWith(".gk");
    io.err(
      ts
        ? `${file} is a TypeScript file, which has no launch statements: run one of its kernels with --kernel K (--grid, --block, --arg name=value ...)`
        : `${file} has no launch statements: add one (launch k(...) grid(...) block(...);) or run a kernel with --kernel K --arg ...`,
    );
    return EXIT.failed;
  }

  // The API's road: a GPU in-process where the addon is built (else, or under GK_ISOLATION=process, a launcher process), or the simulator.
  const opened = await openDevice({ device, gpu, sim: { checkRaces, ...(stepsPerThread !== undefined && { stepsPerThread }) } });
  io.err(`gkc: ${describeDevice(opened)}`);
  const runner = createRunner(ir, fe.sources, opened, { fmad: !values["no-fma"], cacheRoot: cacheRoot(io.env), onWarning: (d) => report(io, [d], fe.sources) });
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

  // Outputs are printed in pieces (printParts): an array of any length is never one string.
  if (values.json) {
    const error = failure?.[0] && { code: failure[0].code, message: failure[0].message };
    await printParts(io, jsonParts(outcomes, error));
  } else {
    const limit = values.all ? Infinity : 64;
    for (const o of outcomes) {
      if (ir.launches.length > 1) {
        const src = fe.sources.get(o.span.file);
        const at = src ? `${o.span.file}:${lineColOf(src, o.span.start).line}` : o.span.file;
        io.out(`# ${o.kernel} (${at})`);
      }
      for (const [name, v] of o.outputs) await printParts(io, [`${name} = `, ...formatElementsParts(v.elem, v.data, limit)]);
    }
  }
  if (failure) {
    report(io, failure, fe.sources);
    return EXIT.failed;
  }
  return EXIT.ok;
}

/** `{"launches":[{"kernel", "device", "outputs":{name:[...]}, "kernel_ms"}], "error"?}` as text, in pieces. */
function* jsonParts(outcomes: readonly LaunchOutcome[], error: { code: string; message: string } | undefined): Generator<string> {
  yield '{"launches":[';
  for (const [i, o] of outcomes.entries()) {
    yield `${i === 0 ? "" : ","}{"kernel":${JSON.stringify(o.kernel)},"device":${JSON.stringify(o.device)},"outputs":{`;
    for (const [j, [name, v]] of [...o.outputs].entries()) {
      yield `${j === 0 ? "" : ","}${JSON.stringify(name)}:`;
      yield* jsonElementsParts(v.elem, v.data);
    }
    yield `},"kernel_ms":${JSON.stringify(o.kernelMs)}}`;
  }
  yield `]${error ? `,"error":${JSON.stringify(error)}` : ""}}`;
}

/** `running on GPU 0: NAME (sm_90, in-process)`, `running on WebGPU (ADAPTER)`, or the simulator and why a GPU was not taken. */
export function describeDevice(d: GpuDevice): string {
  if (d.kind === "webgpu") return `running on ${d.name}`;
  const i = d.info;
  if (i) return `running on GPU ${i.index}: ${i.name} (${i.arch}, ${d.isolation})`;
  return d.reason ? `no GPU: ${d.reason}; running on the CPU simulator` : "running on the CPU simulator";
}

/**
 * `--kernel K --arg ...`: a launch statement written from the flags, in a small in-memory
 * file next to FILE that imports K, so the checker validates it like any launch and its
 * diagnostics quote the flags. What the flags give is pasted into it only where it cannot
 * end what it is pasted into: each name is a name, each value exactly one expression (the
 * parser's rule: no second argument, clause, statement or comment), FILE's name a string.
 */
function frontEndForFlags(file: string, kernel: string, grid: string | undefined, block: string | undefined, argFlags: string[], sharedFlags: string[]) {
  const g = grid ? parseDims(grid, "grid") : [1, 1, 1];
  const b = block ? parseDims(block, "block") : [1, 1, 1];
  const pair = (flag: string, what: string) => (a: string) => {
    const eq = a.indexOf("=");
    if (eq <= 0) throw new UsageError(`${flag} takes ${what} (got ${quotePath(a)})`);
    const name = a.slice(0, eq).trim();
    const value = a.slice(eq + 1).trim();
    if (!NAME.test(name)) throw new UsageError(`${flag} ${quotePath(a)}: ${quotePath(name)} is not a name (${what})`);
    if (!isOneExpression(value)) {
      throw new UsageError(`${flag} ${name}=${quotePath(value)}: the value must be one expression, as in a launch statement (no comment, nothing after it)`);
    }
    return `${name} = ${value}`;
  };
  const args = argFlags.map(pair("--arg", "name=value"));
  const shared = sharedFlags.map(pair("--shared", "name=length"));
  // A kernel's name, or an instance's: the name, then <...> of names, integers and commas.
  const spelled = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<[A-Za-z0-9_,\s-]*>)?\s*$/.exec(kernel);
  if (!spelled) throw new UsageError(`--kernel takes a kernel name, or an instance's as in 'reduce<f32, 256>' (got ${quotePath(kernel)})`);
  const [, name, instance = ""] = spelled;
  const dir = path.dirname(file);
  const virtual = path.join(dir, "<command line>.gk");
  const clause = shared.length ? ` shared(${shared.join(", ")})` : "";
  const text = `import { ${name} } from ${codeLiteral(`./${path.basename(file)}`)};\nlaunch ${name}${instance}(${args.join(", ")}) grid(${g.join(", ")}) block(${b.join(", ")})${clause};\n`;
  return frontEnd(virtual, { host: memoryHost({ [virtual]: text }, nodeHost) });
}

/** A name in a launch statement (a parameter's, a shared array's). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
