/**
 * A fuzzer of hostile import targets (src/load/sourceFiles.ts): fast-check builds a
 * target — a directory, a FIFO, a socket, a device, a /proc file, a huge, binary or
 * non-UTF-8 file, a file with an odd name (quotes, newlines, backslashes, non-ASCII) or
 * another extension, a symlink (chained, dangling or looping) to any of these — and a
 * file importing it by a relative path, with or without `.gk`. The loader must accept
 * exactly the targets the rule of spec/language.md ("Source files") accepts, refuse every
 * other one with one GK6001 at the import's path, and never quote what a refused target
 * holds. It runs in-process, so a hang or an unbounded read would stall it: those shapes
 * are also covered, in a child process with limits, by load.test.ts.
 * GK_FUZZ_RUNS (test/helpers.ts; 6 cases each, 300 by default) and GK_FUZZ_SEED change the
 * count and the seed.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, openSync, ftruncateSync, closeSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostics } from "../../src/diagnostics/format.js";
import { frontEnd } from "../../src/pipeline.js";
import { MAX_SOURCE_BYTES, SOURCE_EXTENSIONS } from "../../src/load/sourceFiles.js";
import { FUZZ_RUNS } from "../helpers.js";

const root = mkdtempSync(join(tmpdir(), "gk-load-fuzz-"));
let server: Server | undefined;
const SOCKET = join(root, "socket.gk");

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(SOCKET, resolve));
});
afterAll(() => {
  server?.close();
  rmSync(root, { recursive: true, force: true });
});

/** What a refused target may hold: it must never appear in a diagnostic. */
const MARK = "SECRET-MARK";

type Content = "gk" | "binary" | "nul" | "latin1" | "huge" | "sparse" | "empty";
type Target =
  | { readonly kind: "file"; readonly name: string; readonly content: Content }
  | { readonly kind: "dir" | "fifo"; readonly name: string }
  | { readonly kind: "system"; readonly path: string }
  | { readonly kind: "socket" }
  | { readonly kind: "link"; readonly name: string; readonly to: Target }
  | { readonly kind: "dangling" | "loop"; readonly name: string };

const SYSTEM = ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/full", "/proc/self/environ", "/proc/self/status", "/proc/self/mem", "/proc/cpuinfo", "/etc/passwd", "/", "/tmp"];

/** File names: odd characters, and endings that are and are not `.gk`. */
const nameArb = fc
  .tuple(
    fc.string({ unit: fc.constantFrom("a", "b", "Z", "0", " ", "'", '"', "\\", "\n", "\t", "é", "…", "$", "`", "-", ".", "*", "?"), minLength: 0, maxLength: 8 }),
    fc.oneof({ weight: 12, arbitrary: fc.constant(".gk") }, fc.constantFrom("", ".txt", ".GK", ".gk.txt", ".ts", ".gk ")),
  )
  .map(([stem, ext]) => `${stem}${ext}`)
  .filter((n) => n.length > 0 && n !== "." && n !== ".." && !n.includes("/"));

const contentArb = fc.constantFrom<Content>("gk", "gk", "gk", "binary", "nul", "latin1", "huge", "sparse", "empty");

const targetArb: fc.Arbitrary<Target> = fc.letrec<{ target: Target }>((tie) => ({
  target: fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant("file" as const), name: nameArb, content: contentArb }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom("dir" as const, "fifo" as const), name: nameArb }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("system" as const), path: fc.constantFrom(...SYSTEM) }) },
    { weight: 1, arbitrary: fc.constant({ kind: "socket" as const }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("link" as const), name: nameArb, to: tie("target") }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("dangling" as const, "loop" as const), name: nameArb }) },
  ),
})).target;

/** Makes the target under `dir`; returns its path and whether the rule accepts what it resolves to as source. */
function make(dir: string, t: Target, depth = 0): { path: string; accepted: boolean } {
  switch (t.kind) {
    case "system":
      return { path: t.path, accepted: false };
    case "socket":
      return { path: SOCKET, accepted: false };
    case "dir": {
      const p = join(dir, t.name);
      mkdirSync(p);
      return { path: p, accepted: false };
    }
    case "fifo": {
      const p = join(dir, t.name);
      execFileSync("mkfifo", [p]);
      return { path: p, accepted: false };
    }
    case "file": {
      const p = join(dir, t.name);
      if (t.content === "sparse") {
        const fd = openSync(p, "w");
        ftruncateSync(fd, MAX_SOURCE_BYTES + 1);
        closeSync(fd);
      } else {
        writeFileSync(p, contentOf(t.content));
      }
      return { path: p, accepted: (t.content === "gk" || t.content === "empty") && isSourceName(t.name) };
    }
    case "link": {
      const sub = join(dir, `d${depth}`);
      mkdirSync(sub, { recursive: true });
      const to = make(sub, t.to, depth + 1);
      const p = join(dir, t.name);
      symlinkSync(to.path, p);
      // A symlink is the file it resolves to (whose own name must be a source name); the names of links on the way do not matter.
      return { path: p, accepted: to.accepted };
    }
    case "dangling": {
      const p = join(dir, t.name);
      symlinkSync(join(dir, "nowhere", "missing.gk"), p);
      return { path: p, accepted: false };
    }
    case "loop": {
      const p = join(dir, t.name);
      symlinkSync(p, p);
      return { path: p, accepted: false };
    }
  }
}

/** A source file's name: `.gk`, or a TypeScript kernel file's (`.ts`, which a .gk file may import too). */
function isSourceName(name: string): boolean {
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext) && name.length > ext.length);
}

function contentOf(c: Exclude<Content, "sparse">): Buffer {
  switch (c) {
    case "gk":
      return Buffer.from(`// ${MARK} in a comment of a good file\nexport const x = 1;\n`);
    case "empty":
      return Buffer.from("export const x = 1;\n");
    case "binary":
      return Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, ...Buffer.from(MARK), 0xff, 0xfe, 0x00]);
    case "nul":
      return Buffer.from(`export const x = 1; // ${MARK}\0\n`);
    case "latin1":
      return Buffer.concat([Buffer.from(`// ${MARK} `), Buffer.from([0xe9, 0xe8, 0x0a]), Buffer.from("export const x = 1;\n")]);
    case "huge":
      return Buffer.from(`// ${MARK}${"z".repeat(MAX_SOURCE_BYTES)}\nexport const x = 1;\n`);
  }
}

/** A gk string literal naming `path`, every character that is not plain written as \u{...}. */
function gkString(path: string): string {
  return `"${[...path].map((c) => (/[A-Za-z0-9._\-/]/.test(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join("")}"`;
}

let runs = 0;
const outcomes = { accepted: 0, refused: 0 };
const reasons = new Map<string, number>();

describe("the loader on hostile import targets", () => {
  it("accepts exactly the source files and refuses the rest with one located GK6001 that never quotes them", () => {
    fc.assert(
      fc.property(targetArb, fc.boolean(), (target, dropExtension) => {
        const dir = join(root, `case${runs++}`);
        mkdirSync(dir);
        try {
          const made = make(dir, target);
          let spec = relative(dir, made.path);
          if (!spec.startsWith("./") && !spec.startsWith("../")) spec = `./${spec}`;
          // Leaving `.gk` out names the same file.
          if (dropExtension && spec.endsWith(".gk") && spec.length > 5) spec = spec.slice(0, -3);
          const importer = join(dir, "main.gk");
          writeFileSync(importer, `import { x } from ${gkString(spec)};\ndevice_kernel k(out: global<i32>) { out[0] = x; }\n`);
          const r = frontEnd(importer);
          const text = formatDiagnostics(r.diagnostics, r.sources);
          // The name the import asks for must be a source name too.
          if (made.accepted && (target.kind !== "link" || isSourceName(target.name))) {
            outcomes.accepted++;
            expect(text, `${JSON.stringify(target)} should be read`).toBe("");
            return;
          }
          outcomes.refused++;
          expect(r.diagnostics.map((d) => d.code), `${JSON.stringify(target)}:\n${text}`).toEqual(["GK6001"]);
          const d = r.diagnostics[0]!;
          expect(d.span).toEqual({ file: importer, start: 18, end: 18 + gkString(spec).length });
          expect(text).not.toContain(MARK);
          expect(text.length).toBeLessThan(1500);
          const why = /: ([^:]*?)(?: \(an import names|$)/.exec(d.message.split("\n")[0]!)?.[1] ?? d.message;
          const key = why.replace(/'.*'/, "'…'").replace(/\d+/g, "N").replace(/\(line N\)/, "");
          reasons.set(key, (reasons.get(key) ?? 0) + 1);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: FUZZ_RUNS * 6, seed: Number(process.env.GK_FUZZ_SEED ?? 20261201) },
    );
    expect(outcomes.accepted).toBeGreaterThan(10);
    expect(outcomes.refused).toBeGreaterThan(100);
    if (process.env.GK_FUZZ_REPORT) console.log(`${runs} cases: ${outcomes.accepted} read, ${outcomes.refused} refused\n${[...reasons].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n}  ${k}`).join("\n")}`);
  });
});
