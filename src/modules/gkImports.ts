/**
 * The `.gk` modules a JavaScript or TypeScript file imports: the relative specifiers ending
 * in `.gk` of `import ... from`, `export ... from`, `import "..."` and `import("...")`, read
 * from the text without TypeScript (gkc check reports those modules' diagnostics with the
 * file's own: an import of a module with errors fails at run time). Comments, strings and
 * template literals are skipped, so an import in a comment or a string is none.
 */

/** A `.gk` specifier and where it is in the text (byte offsets of the string literal). */
export interface GkImport {
  readonly specifier: string;
  readonly start: number;
  readonly end: number;
}

export function gkImportsOf(text: string): GkImport[] {
  const out: GkImport[] = [];
  let i = 0;
  /** The last word or punctuation read outside comments and strings, and the one before. */
  let last = "";
  let before = "";
  const push = (tok: string) => {
    before = last;
    last = tok;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && !(c !== "`" && text[j] === "\n")) j += text[j] === "\\" ? 2 : 1;
      const value = text.slice(i + 1, j);
      const isSpecifier = c !== "`" && (last === "from" || last === "import" || (last === "(" && before === "import"));
      if (isSpecifier && /^\.\.?\//.test(value) && value.endsWith(".gk")) out.push({ specifier: value, start: i, end: j + 1 });
      push("string");
      i = j + 1;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[\w$]/.test(text[j]!)) j++;
      push(text.slice(i, j));
      i = j;
    } else {
      if (!/\s/.test(c)) push(c);
      i++;
    }
  }
  return out;
}
