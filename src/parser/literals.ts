/**
 * Scanning and validating literals. The scanners are deliberately generous: a number
 * token is any run that starts like a number (so `08x` or `1__0` is one token, one
 * error), a string runs to its closing quote or the end of its line, a block comment
 * to its `*\/` or the end of the file. What is wrong with a literal is then said in
 * words by `numberProblem` and `readString`, while the parser carries on undisturbed.
 */

type Match = [string];

const DOT = 46;
const PLUS = 43;
const MINUS = 45;
const SLASH = 47;
const STAR = 42;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Digits, letters, `_` and `.` after a digit (or `.digit`), and a sign right after a decimal exponent's `e`. */
export function scanNumber(text: string, offset: number): Match | null {
  const first = text.charCodeAt(offset);
  if (first === DOT ? !isDigit(text.charCodeAt(offset + 1)) : !isDigit(first)) return null;
  const prefixed = first === 48 && /[xXbBoO]/.test(text.charAt(offset + 1));
  let i = offset + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWordChar(c) || c === DOT) {
      i++;
    } else if ((c === PLUS || c === MINUS) && !prefixed && /[eE]/.test(text.charAt(i - 1)) && isDigit(text.charCodeAt(i + 1))) {
      i++;
    } else {
      break;
    }
  }
  return [text.slice(offset, i)];
}

/** A string up to its closing quote, or up to (not including) the end of the line when unterminated. */
export function scanString(text: string, offset: number): Match | null {
  const quote = text.charAt(offset);
  if (quote !== '"' && quote !== "'") return null;
  let i = offset + 1;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === quote) return [text.slice(offset, i + 1)];
    if (ch === "\n" || ch === "\r") break;
    i += ch === "\\" && i + 1 < text.length && !/[\n\r]/.test(text.charAt(i + 1)) ? 2 : 1;
  }
  return [text.slice(offset, i)];
}

/** `/* ... *\/`, or everything to the end of the file when the comment is never closed. */
export function scanBlockComment(text: string, offset: number): Match | null {
  if (text.charCodeAt(offset) !== SLASH || text.charCodeAt(offset + 1) !== STAR) return null;
  const close = text.indexOf("*/", offset + 2);
  return [text.slice(offset, close < 0 ? text.length : close + 2)];
}

export function isTerminatedComment(image: string): boolean {
  return image.length >= 4 && image.endsWith("*/");
}

export interface StringValue {
  /** The contents with quotes removed and escapes resolved. */
  readonly value: string;
  readonly terminated: boolean;
}

const simpleEscapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** Reads a string token's image (as produced by `scanString`). */
export function readString(image: string): StringValue {
  const quote = image.charAt(0);
  let value = "";
  let i = 1;
  while (i < image.length) {
    const ch = image.charAt(i);
    if (ch === quote) return { value, terminated: i === image.length - 1 };
    if (ch !== "\\" || i + 1 >= image.length) {
      value += ch;
      i++;
      continue;
    }
    const next = image.charAt(i + 1);
    const hex = /^u\{([0-9a-fA-F]{1,6})\}|^u([0-9a-fA-F]{4})|^x([0-9a-fA-F]{2})/.exec(image.slice(i + 1));
    if (hex) {
      const code = parseInt(hex[1] ?? hex[2] ?? hex[3] ?? "0", 16);
      value += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
      i += 1 + hex[0].length;
    } else {
      value += simpleEscapes[next] ?? next;
      i += 2;
    }
  }
  return { value, terminated: false };
}

interface Radix {
  /** The name with its article: "a binary", "an octal". */
  readonly name: string;
  readonly digit: RegExp;
  readonly example: string;
}

const radixes: Record<string, Radix> = {
  x: { name: "a hexadecimal", digit: /[0-9a-fA-F]/, example: "0xFF" },
  b: { name: "a binary", digit: /[01]/, example: "0b1010" },
  o: { name: "an octal", digit: /[0-7]/, example: "0o17" },
};

/** What is wrong with a number token's text, in words, or undefined when it is a valid literal. */
export function numberProblem(image: string): string | undefined {
  const radix = /^0[xXbBoO]/.test(image) ? radixes[image.charAt(1).toLowerCase()] : undefined;
  return radix ? radixProblem(image, radix) : decimalProblem(image);
}

/** The literal's text as the AST keeps it: numeric separators removed. */
export function numberText(image: string): string {
  return image.replace(/_/g, "");
}

/** A decimal literal with a `.` or an exponent. */
export function isFloatLiteral(image: string): boolean {
  return !/^0[xXbBoO]/.test(image) && /[.eE]/.test(image);
}

function radixProblem(image: string, radix: Radix): string | undefined {
  const body = image.slice(2);
  if (body === "") return `'${image}' has no digits after '${image.slice(0, 2)}': write, for example, ${radix.example}`;
  for (let i = 0; i < body.length; i++) {
    const ch = body.charAt(i);
    if (ch === "_") {
      if (!radix.digit.test(body.charAt(i - 1)) || !radix.digit.test(body.charAt(i + 1))) return separatorProblem(image);
    } else if (ch === ".") {
      return `${radix.name} number cannot have a fractional part: '${image}'`;
    } else if (!radix.digit.test(ch)) {
      return `'${ch}' is not ${radix.name} digit in '${image}'`;
    }
  }
  return undefined;
}

function separatorProblem(image: string): string {
  return `'_' in '${image}' must stand between two digits, as in 1_000_000`;
}

function decimalProblem(image: string): string | undefined {
  const bad = /[^0-9_.eE+-]/.exec(image);
  if (bad) {
    const lead = /^[0-9_.]*(?:[eE][+-]?[0-9_]+)?/.exec(image)?.[0] ?? "";
    const suffix = image.slice(lead.length);
    if (lead !== "" && /^[a-zA-Z][a-zA-Z0-9]*$/.test(suffix) && decimalProblem(lead) === undefined) {
      return `'${image}' is not a number: gk literals have no suffix like '${suffix}'; write ${lead}, and a cast such as f32(${lead}) where a type is needed`;
    }
    return `'${image}' is not a valid number: unexpected '${bad[0]}'`;
  }
  for (let i = 0; i < image.length; i++) {
    if (image.charAt(i) === "_" && !(isDigit(image.charCodeAt(i - 1)) && isDigit(image.charCodeAt(i + 1)))) {
      return separatorProblem(image);
    }
  }
  const text = numberText(image);
  const m = /^(\d*)(\.\d*)?(?:[eE]([+-]?)(\d*))?$/.exec(text);
  if (!m) {
    if ((text.match(/\./g) ?? []).length > 1) return `'${image}' has more than one '.'`;
    if ((text.match(/[eE]/g) ?? []).length > 1) return `'${image}' has more than one exponent`;
    return `the exponent in '${image}' must be a whole number`;
  }
  const [, int = "", , , exp] = m;
  if (exp === "") return `'${image}' is missing the exponent's digits: write, for example, 1e3`;
  if (int.length > 1 && int.startsWith("0")) {
    const trimmed = int.replace(/^0+(?=\d)/, "");
    return `decimal numbers cannot start with 0: write ${trimmed}${text.slice(int.length)}` +
      (/^[0-7]+$/.test(int) ? ` (or 0o${int.slice(1).replace(/^0+(?=\d)/, "")} for an octal number)` : "");
  }
  return undefined;
}
