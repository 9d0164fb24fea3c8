/**
 * `gkc`: the command-line front door. Every failure is a message and an exit status, never a stack trace.
 * Each command's module is loaded only when that command runs (or shows its help), so a
 * command pays at start-up only for what it uses: `gkc --version` loads no compiler, `gkc
 * check` no simulator, nvcc driver or launcher (test/cli/startup.test.ts keeps it so).
 */
import { formatDiagnostic } from "../diagnostics/format.js";
import { SourceMap } from "../diagnostics/source.js";
import { gkVersion } from "../cacheFolder.js";
import { setStatusLine } from "../progress.js";
import { EXIT, processIo, UsageError, type Io } from "./io.js";
import { printRuntimeError } from "./runtimeErrors.js";

interface CommandModule {
  readonly help: string;
  readonly run: (args: string[], io: Io) => number | Promise<number>;
}

interface Command {
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

const COMMANDS: Record<string, Command> = {
  check: { summary: "check .gk files (and TypeScript kernel files) and print diagnostics", load: async () => import("./commands/check.js").then((m) => ({ help: m.help, run: m.check })) },
  types: { summary: "write the TypeScript declaration of .gk files (x.d.gk.ts)", load: async () => import("./commands/types.js").then((m) => ({ help: m.help, run: m.types })) },
  ir: { summary: "print the typed device IR", load: async () => import("./commands/ir.js").then((m) => ({ help: m.help, run: m.ir })) },
  cuda: { summary: "print the generated CUDA C++", load: async () => import("./commands/cuda.js").then((m) => ({ help: m.help, run: m.cuda })) },
  wgsl: { summary: "print the generated WGSL (WebGPU)", load: async () => import("./commands/wgsl.js").then((m) => ({ help: m.help, run: m.wgsl })) },
  build: { summary: "build PTX and cubin through the kernel cache", load: async () => import("./commands/build.js").then((m) => ({ help: m.help, run: m.build })) },
  run: { summary: "run a file's launch statements (GPU, or the CPU simulator)", load: async () => import("./commands/run.js").then((m) => ({ help: m.help, run: m.run })) },
  cache: { summary: "show or clear the kernel cache", load: async () => import("./commands/cache.js").then((m) => ({ help: m.help, run: m.cache })) },
  devices: { summary: "list the GPUs gk can use", load: async () => import("./commands/devices.js").then((m) => ({ help: m.help, run: m.devices })) },
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
    "gkc <command> --help shows a command's options. Examples (README.md's tour has saxpy.gk):",
    "  gkc check saxpy.gk",
    "  gkc run saxpy.gk",
    "  gkc run saxpy.gk --device cpu --json",
  ].join("\n");
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? args[0] : undefined;
    if (topic && COMMANDS[topic]) io.out((await COMMANDS[topic].load()).help);
    else io.out(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    io.out(gkVersion());
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    const { didYouMean } = await import("../diagnostics/didYouMean.js");
    io.err(`gkc: unknown command '${name}'${didYouMean(name, Object.keys(COMMANDS))}\n\n${usage()}`);
    return EXIT.usage;
  }
  let cmd: CommandModule | undefined;
  // Long work (a simulation, an nvcc build) shows its progress on the status line, where there is one (a terminal's stderr).
  const statusBefore = setStatusLine(io.status);
  try {
    cmd = await command.load();
    if (args.includes("--help") || args.includes("-h")) {
      io.out(cmd.help);
      return EXIT.ok;
    }
    return await cmd.run(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`gkc ${name}: ${e.message}${cmd ? `\n\n${cmd.help}` : ""}`);
      return EXIT.usage;
    }
    if (printRuntimeError(io, e, new SourceMap())) return EXIT.failed;
    const { internalError } = await import("../pipeline.js");
    io.err(formatDiagnostic(internalError(e), new SourceMap()));
    return EXIT.internal;
  } finally {
    setStatusLine(statusBefore);
  }
}
