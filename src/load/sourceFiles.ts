/**
 * What gk agrees to read as source (spec/language.md, "Source files"), in one place for
 * every loader: the entry file, imports, and any future front end reach files only
 * through a SourceHost (load.ts), whose file-system reader is `readSourceFile` below.
 *
 * A source file is named `*.gk` (or `*.ts`, `*.mts`, `*.cts`: the front ends' extensions), is a
 * regular file (a symlink counts as the file it resolves to, which must itself be so named), holds at most MAX_SOURCE_BYTES bytes
 * and is UTF-8 text without NUL bytes. Everything is checked before a byte is read, and
 * the read itself is bounded, so a device, a FIFO or a /proc file never hangs the
 * compiler, exhausts its memory or lands in a diagnostic's code frame.
 */
import * as fs from "node:fs";
import { isUtf8 } from "node:buffer";
import * as path from "node:path";
import { FRONT_ENDS } from "./frontEnds.js";
import { ioProblem, NO_SUCH_FILE, notRegular, readRegularFileSync } from "../regularFile.js";
import { escapeUnprintable } from "../diagnostics/source.js";

/** The file name endings of kernel source: those of the front ends (frontEnds.ts). */
export const SOURCE_EXTENSIONS: readonly string[] = FRONT_ENDS.flatMap((f) => f.extensions);
/** What a source file is, in words: "a .gk file or a TypeScript file (.ts, .mts, .cts)". */
export const SOURCE_KINDS: string = FRONT_ENDS.map((f, i) =>
  i === 0 ? `a ${f.extensions.join(" or ")} file` : `a ${f.language} file (${f.extensions.join(", ")})`,
).join(" or ");

/** The largest source file gk reads: 4 MiB. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

export type SourceRead = { text: string } | { error: string };

/** The error of a path where there is no file. */
export { NO_SUCH_FILE };

/**
 * A path as messages show it: quoted, with every character escaped that would reach a
 * terminal as more than itself (a name may hold a newline, an ANSI escape, a C1 control,
 * a line or paragraph separator, or a bidirectional override that reorders what follows).
 */
export function quotePath(p: string): string {
  return `'${escapeUnprintable(p)}'`;
}

/** Why `file` cannot be a source file by its name alone, or undefined. */
export function sourceNameProblem(file: string): string | undefined {
  if (file.includes("\0")) return "the path contains a NUL character";
  if (!SOURCE_EXTENSIONS.some((ext) => file.endsWith(ext) && path.basename(file).length > ext.length)) {
    return `not ${SOURCE_KINDS} (gk reads only kernel source)`;
  }
  return undefined;
}

/** Why source text cannot be read as a file of the program (its size), or undefined; for sources that do not come from a file. */
export function sourceTextProblem(text: string): string | undefined {
  // Counted as UTF-8 without Node's Buffer, which a browser lacks (an imported .gk module's sources).
  const bytes = text.length * 3 <= MAX_SOURCE_BYTES ? text.length : new TextEncoder().encode(text).byteLength;
  return bytes > MAX_SOURCE_BYTES ? tooLarge(bytes) : undefined;
}

/** `bytes` undefined: more than the limit, by an unknown amount (a file that grew while read). */
function tooLarge(bytes: number | undefined): string {
  return `it is ${bytes === undefined ? "more than 4 MiB" : `${bytes} bytes`}; a source file is at most 4 MiB (${MAX_SOURCE_BYTES} bytes)`;
}

/** The line (from 1) of byte `offset`. */
function lineOf(buf: Buffer, offset: number): number {
  let line = 1;
  for (let i = buf.indexOf(10); i >= 0 && i < offset; i = buf.indexOf(10, i + 1)) line++;
  return line;
}

/** The first line that is not valid UTF-8 (a newline byte never occurs inside a UTF-8 sequence). */
function firstBadLine(buf: Buffer): number {
  let start = 0;
  for (let line = 1; ; line++) {
    const nl = buf.indexOf(10, start);
    const end = nl < 0 ? buf.length : nl;
    if (!isUtf8(buf.subarray(start, end))) return line;
    if (nl < 0) return line;
    start = nl + 1;
  }
}

/** Reads a source file from the file system under the rules above; an error says which rule it breaks, never what the file holds. */
export function readSourceFile(file: string): SourceRead {
  const named = sourceNameProblem(file);
  if (named) return { error: named };
  let st: fs.Stats;
  let real: string;
  // stat follows symlinks: the file a symlink resolves to passes the same tests, and its name too.
  try {
    st = fs.statSync(file);
    const kind = notRegular(st);
    if (kind) return { error: kind };
    real = fs.realpathSync(file);
  } catch (e) {
    return { error: ioProblem(e) };
  }
  if (sourceNameProblem(real)) return { error: `it is a symlink to ${quotePath(real)}, which is not ${SOURCE_KINDS}` };
  if (st.size > MAX_SOURCE_BYTES) return { error: tooLarge(st.size) };
  // Non-blocking, and checked again on the open file: a path swapped for a FIFO after the stat cannot block the read.
  const read = readRegularFileSync(file, { maxBytes: MAX_SOURCE_BYTES, identity: st });
  if (read.kind === "tooLarge") return { error: tooLarge(read.bytes) };
  if (read.kind === "error") return { error: read.error };
  const buf = read.data;
  const nul = buf.indexOf(0);
  if (nul >= 0) return { error: `it contains a NUL byte (line ${lineOf(buf, nul)}): not a text file` };
  if (!isUtf8(buf)) return { error: `it is not UTF-8 text (line ${firstBadLine(buf)})` };
  return { text: buf.toString("utf8") };
}
