/** `gkc`: the command-line front door. Every failure is a message and an exit status, never a stack trace. */
import { formatDiagnostic } from "../diagnostics/format.js";
import { SourceMap } from "../diagnostics/source.js";
import { internalError } from "../pipeline.js";
import { gkVersion } from "../runtime/cache.js";
import * as build from "./commands/build.js";
import * as cache from "./commands/cache.js";
import * as check from "./commands/check.js";
import * as cuda from "./commands/cuda.js";
import * as devices from "./commands/devices.js";
import * as ir from "./commands/ir.js";
import * as run from "./commands/run.js";
import { EXIT, processIo, UsageError, type Io } from "./io.js";
import { printRuntimeError } from "./runtimeErrors.js";

interface Command {
  readonly summary: string;
  readonly help: string;
  readonly run: (args: string[], io: Io) => number | Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  check: { summary: "check .gk files and print diagnostics", help: check.help, run: check.check },
  ir: { summary: "print the typed device IR", help: ir.help, run: ir.ir },
  cuda: { summary: "print the generated CUDA C++", help: cuda.help, run: cuda.cuda },
  build: { summary: "build PTX and cubin through the kernel cache", help: build.help, run: build.build },
  run: { summary: "run a file's launch statements (GPU, or the CPU simulator)", help: run.help, run: run.run },
  cache: { summary: "show or clear the kernel cache", help: cache.help, run: cache.cache },
  devices: { summary: "list the GPUs gk can use", help: devices.help, run: devices.devices },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    `gkc ${gkVersion()}: GPU kernels in a small typed language, for TypeScript users`,
    "",
    "usage: gkc <command> [options]",
    "",
    ...Object.entries(COMMANDS).map(([k, c]) => `  ${k.padEnd(width)}  ${c.summary}`),
    "",
    "gkc <command> --help shows a command's options. Examples:",
    "  gkc check examples/saxpy.gk",
    "  gkc run examples/saxpy.gk",
    "  gkc run examples/saxpy.gk --device cpu --json",
  ].join("\n");
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? args[0] : undefined;
    if (topic && COMMANDS[topic]) io.out(COMMANDS[topic].help);
    else io.out(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    io.out(gkVersion());
    return EXIT.ok;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`gkc: unknown command '${name}'\n\n${usage()}`);
    return EXIT.usage;
  }
  if (args.includes("--help") || args.includes("-h")) {
    io.out(cmd.help);
    return EXIT.ok;
  }
  try {
    return await cmd.run(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`gkc ${name}: ${e.message}\n\n${cmd.help}`);
      return EXIT.usage;
    }
    if (printRuntimeError(io, e, new SourceMap())) return EXIT.failed;
    io.err(formatDiagnostic(internalError(e), new SourceMap()));
    return EXIT.internal;
  }
}
