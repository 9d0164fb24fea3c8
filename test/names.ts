/**
 * Hostile file and folder names for the fuzzers of generated code (test/modules/names-fuzz,
 * test/cli/types, test/cli/run): every separator, quote, line terminator and escape, ANSI
 * escapes, unicode, spaces, `*`, `$()`, backticks and `${}`, each on its own and in
 * random mixes (fast-check, a fixed seed, so the cases are the same on every run).
 * A name may hold `/`: it is then a path of folders. Every name is one the file system
 * takes (no NUL, no empty, `.` or `..` part, parts of at most 200 bytes).
 */
import fc from "fast-check";

/** The pieces names are made of. */
export const PIECES: readonly string[] = [
  "\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\t", "\v", "\f", "\b", "\x7f",
  "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "\x1b[2J", "\u009b31m", "\u202e", "\u200b", "\ufeff", "\u0301",
  "\\", "\\n", "\\u2028", "\\\\", '"', "'", "`", "${x}", "$(touch pwned)", "`id`",
  "*/", "/*", "//", "<!--", "-->", "#", "?", "%", "%0a", "&", ";", "|", " ", "*", "~", "=", ",",
  "(", ")", "{", "}", "[", "]", "<", ">", "!", "@", "+", "^", ":", "é", "日本", "😀", "-", "--x",
];

/** Names that broke generated code when the issue was filed (issue 25, item 1). */
export const KNOWN: readonly string[] = [
  'x\nconsole.log("PWNED");var module={};',
  "x\nexport declare const INJECTED: 1;\nx",
  "x\u2028console.log('PWNED')//",
  '"; throw 1; "',
  "a\\",
];

function valid(name: string): boolean {
  const parts = name.split("/");
  return !name.includes("\0") && parts.every((p) => p !== "" && p !== "." && p !== ".." && Buffer.byteLength(p) <= 200);
}

/** Each piece alone (between letters), the known ones, and `random` random mixes of pieces. */
export function hostileNames(random: number, seed = 25): string[] {
  const mixes = fc.sample(fc.array(fc.constantFrom(...PIECES, "a", "/"), { minLength: 1, maxLength: 6 }).map((ps) => `n${ps.join("")}z`), { seed, numRuns: random });
  return [...new Set([...PIECES.map((p) => `x${p}y`), ...KNOWN, ...mixes])].filter(valid);
}
