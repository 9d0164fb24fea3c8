/**
 * Output lines, `#line` directives, and the escaping of file names placed in the output.
 *
 * Emitters produce lines, some tagged with the `.gk` location they come from. `renderLines`
 * writes a `#line N "file.gk"` before a tagged line only where nvcc would otherwise count a
 * different line: consecutive statements on consecutive source lines need none. So nvcc's
 * messages and `-lineinfo` profiles point at the user's lines.
 */

/** A place in a `.gk` file: the file as the compiler was given it, and a 1-based line. */
export interface Loc {
  readonly file: string;
  readonly line: number;
}

export interface Line {
  readonly text: string;
  readonly loc?: Loc | undefined;
}

export function line(text: string, loc?: Loc): Line {
  return { text, loc };
}

/** The output text; `directives` false drops every location. */
export function renderLines(lines: readonly Line[], directives: boolean): string {
  const out: string[] = [];
  // The file and line nvcc assigns to the next output line, once a directive has set them.
  let next: Loc | undefined;
  for (const l of lines) {
    if (directives && l.loc && (next === undefined || next.file !== l.loc.file || next.line !== l.loc.line)) {
      out.push(`#line ${l.loc.line} ${cStringLiteral(lineDirectiveFile(l.loc.file))}`);
      next = l.loc;
    }
    out.push(l.text);
    if (next) next = { file: next.file, line: next.line + 1 };
  }
  return out.join("\n") + "\n";
}

/**
 * The name a `#line` directive gives a file. nvcc's toolchain cannot carry two characters:
 * ptxas rejects the PTX that `-lineinfo` writes for a name with `"`, and its preprocessor
 * turns `\?\?/` back into a trigraph that nvcc warns about. Those two are written
 * `%22` and `%3F`; every other character reaches nvcc's messages unchanged.
 */
export function lineDirectiveFile(file: string): string {
  return file.replace(/"/g, "%22").replace(/\?/g, "%3F");
}

/**
 * A C string literal with these characters, for `#line`: quotes, backslashes and `?` (no
 * trigraph can form) are escaped, and every byte outside printable ASCII is written in octal,
 * so no file name can end the directive or the string early.
 */
export function cStringLiteral(s: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(s)) {
    const ch = String.fromCharCode(byte);
    if (ch === '"' || ch === "\\" || ch === "?") out += `\\${ch}`;
    else if (byte >= 0x20 && byte <= 0x7e) out += ch;
    else out += `\\${byte.toString(8).padStart(3, "0")}`;
  }
  return `${out}"`;
}

/**
 * A file name for a `//` comment: as it is when it is plainly a path, else as a C string
 * literal (so a newline, a trailing backslash or a `*\/` cannot end or extend the comment).
 */
export function commentFileName(s: string): string {
  if (/^[A-Za-z0-9_./+@-]+$/.test(s)) return s;
  return cStringLiteral(s).replace(/\*\//g, "*\\/");
}
