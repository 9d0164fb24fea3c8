/**
 * Loading source files (src/load/program.ts): what gk agrees to read as source
 * (spec/language.md, "Source files"). An import, or the entry file, that names a
 * directory, a device, a FIFO, a socket, a /proc file, a file that is not a `.gk` file
 * or one past the size limit gets a located error; nothing hangs, nothing reads without
 * bound, and nothing but kernel source is ever echoed into a diagnostic. The cases that
 * would hang or exhaust memory in a broken loader run `gkc check` in a child process
 * with a time and memory limit, so a regression fails instead of stalling the suite.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostics } from "../../src/diagnostics/format.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { diagnosticLines } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "gk-load-"));
let server: Server | undefined;
afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** A file that imports `spec` on line 1 (the path starts at column 19) and uses nothing else. */
function importer(name: string, spec: string): string {
  return file(name, `import { x } from "${spec}";\ndevice_kernel k(out: global<i32>) { out[0] = 1; }\n`);
}

/** `gkc check FILE` in a child process: at most 5 min (a bound for a hang, not a speed) and 3 GB of address space. */
async function gkcCheck(path: string): Promise<{ code: number | undefined; err: string; timedOut: boolean }> {
  const r = await execa("sh", ["-c", 'ulimit -v 3000000; exec node bin/gkc.js check "$0"', path], { reject: false, timeout: 300_000, env: { NO_COLOR: "1" } });
  return { code: r.exitCode, err: String(r.stderr), timedOut: Boolean(r.timedOut) };
}

const fromDir = (target: string) => relative(dir, target);

describe("imports of things that are not kernel source", () => {
  beforeAll(async () => {
    await execa("mkfifo", [join(dir, "pipe.gk")]);
    symlinkSync("/dev/zero", join(dir, "zero-link.gk"));
    symlinkSync("/proc/self/environ", join(dir, "environ-link.gk"));
    symlinkSync(join(dir, "pipe.gk"), join(dir, "pipe-link.gk"));
    mkdirSync(join(dir, "folder.gk"));
    symlinkSync(join(dir, "folder.gk"), join(dir, "folder-link.gk"));
  });

  const hostile: [string, () => string, RegExp][] = [
    ["/dev/zero", () => fromDir("/dev/zero"), /dev\/zero.*(not a \.gk file|no such file)/],
    ["/dev/urandom", () => fromDir("/dev/urandom"), /dev\/urandom.*(not a \.gk file|no such file)/],
    ["a FIFO", () => "./pipe.gk", /a FIFO/],
    ["a symlink to /dev/zero", () => "./zero-link.gk", /a symlink to '\/dev\/zero', which is not a \.gk file|a character device/],
    ["a symlink to a FIFO", () => "./pipe-link.gk", /a FIFO/],
    ["a symlink to /proc/self/environ", () => "./environ-link.gk", /not a \.gk file/],
    ["/proc/self/environ", () => fromDir("/proc/self/environ"), /environ.*(not a \.gk file|no such file)/],
  ];
  for (const [what, spec, why] of hostile) {
    it(`refuses ${what} with a located GK6001, at once`, async () => {
      const f = importer(`imports-${what.replace(/\W+/g, "-")}.gk`, spec());
      const r = await gkcCheck(f);
      expect(r.timedOut, "gkc check hung").toBe(false);
      expect(r.code, r.err.slice(0, 400)).toBe(1);
      expect(r.err).toContain(`${f}:1:19 - error GK6001: cannot import '${spec()}'`);
      expect(r.err).toMatch(why);
      expect(r.err).not.toMatch(/PATH=|HOME=|bad_alloc|\x00/);
      expect(r.err.length).toBeLessThan(2000);
    });
  }

  it("refuses an entry file that is a FIFO or a device, without opening it", async () => {
    const fifo = await gkcCheck(join(dir, "pipe.gk"));
    expect(fifo.timedOut, "gkc check hung on a FIFO").toBe(false);
    expect(fifo.err).toContain(`error GK7004: cannot read '${join(dir, "pipe.gk")}': it is a FIFO`);
    const zero = await gkcCheck("/dev/zero");
    expect(zero.err).toContain("error GK7004: cannot read '/dev/zero': not a .gk file");
  });

  it("refuses a directory, also through a symlink", () => {
    for (const spec of ["./folder.gk", "./folder-link.gk"]) {
      const r = frontEnd(importer("dir.gk", spec));
      expect(diagnosticLines(r)).toEqual([expect.stringMatching(new RegExp(`^GK6001 1:19 cannot import '${spec}': .*it is a directory`))]);
    }
  });

  it("refuses a socket", async () => {
    const sock = join(dir, "sock.gk");
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(sock, resolve));
    const r = frontEnd(importer("sock-importer.gk", "./sock.gk"));
    expect(diagnosticLines(r)).toEqual([expect.stringMatching(/^GK6001 1:19 cannot import '.\/sock.gk': .*it is a socket/)]);
  });

  it("refuses a file that is not a .gk file, and never echoes it", () => {
    file("notes.txt", "SECRET=hunter2\n");
    const r = frontEnd(importer("txt.gk", "./notes.txt"));
    expect(diagnosticLines(r)).toEqual([expect.stringMatching(/^GK6001 1:19 cannot import '.\/notes.txt'/)]);
    expect(formatDiagnostics(r.diagnostics, r.sources)).not.toContain("hunter2");
    const direct = frontEnd(importer("env.gk", fromDir("/proc/self/environ")));
    expect(direct.diagnostics.map((d) => d.code)).toEqual(["GK6001"]);
    expect(formatDiagnostics(direct.diagnostics, direct.sources)).not.toMatch(/PATH=/);
  });

  it("refuses a .gk file past the size limit, saying the limit", () => {
    file("huge.gk", `// ${"x".repeat(4 * 1024 * 1024)}\n`);
    const r = frontEnd(importer("huge-importer.gk", "./huge.gk"));
    expect(diagnosticLines(r)).toEqual([expect.stringMatching(/^GK6001 1:19 cannot import '.\/huge.gk': .*4194308 bytes; a source file is at most 4 MiB \(4194304 bytes\)/)]);
    const entry = frontEnd(join(dir, "huge.gk"));
    expect(diagnosticLines(entry)).toEqual([expect.stringMatching(/^GK7004 cannot read .*huge.gk'.*at most 4 MiB/)]);
  });

  it("refuses binary content: NUL bytes and bytes that are not UTF-8", () => {
    file("nul.gk", Buffer.from("const A = 1;\x00\x01\x02\n"));
    file("latin1.gk", Buffer.from([0x63, 0x6f, 0x6e, 0x73, 0x74, 0x20, 0xe9, 0x0a]));
    const nul = frontEnd(importer("nul-importer.gk", "./nul.gk"));
    expect(diagnosticLines(nul)).toEqual([expect.stringMatching(/^GK6001 1:19 cannot import '.\/nul.gk': .*a NUL byte \(line 1\): not a text file/)]);
    const latin1 = frontEnd(importer("latin1-importer.gk", "./latin1.gk"));
    expect(diagnosticLines(latin1)).toEqual([expect.stringMatching(/^GK6001 1:19 cannot import '.\/latin1.gk': .*not UTF-8 text \(line 1\)/)]);
  });

  it("adds .gk to the path as written, before normalizing it (found by load-fuzz.test.ts)", () => {
    mkdirSync(join(dir, "dots"));
    file("dots/..gk", "export const x = 1;\n");
    const r = frontEnd(file("dots/main.gk", `import { x } from "./.";\ndevice_kernel k(out: global<i32>) { out[0] = x; }\n`));
    expect(diagnosticLines(r)).toEqual([]);
  });

  it("applies the size limit to in-memory sources too", () => {
    const big = `// ${"y".repeat(4 * 1024 * 1024)}\n`;
    const r = frontEnd("mem.gk", { host: memoryHost({ "mem.gk": big }) });
    expect(diagnosticLines(r)).toEqual([expect.stringMatching(/^GK7004 cannot read 'mem.gk': .*at most 4 MiB/)]);
  });
});
