/**
 * How instances of generic definitions are named, in one place:
 *
 * - in gk, the IR, messages and the API: `reduce<f32, 256>`, the definition's name and
 *   its arguments (types by name, constants in decimal, `true`/`false`, device functions by
 *   IR name), comma-separated;
 * - in CUDA (the `extern "C"` symbol of a kernel instance): `reduce$f32$256`, the
 *   definition's symbol, then `$` and each argument, a minus sign written `m`
 *   (`f<i32, -1>` is `f$i32$m1`). gk names cannot contain `$`, which PTX symbols can, so no
 *   kernel or function of a program can take an instance's symbol.
 */
import type { InstanceArg } from "./nodes.js";
import { typeToString } from "./types.js";

/** `reduce<f32, 256>`; an argument given as a string is written as it is (a parameter's name, in a message). */
export function instanceSpelling(generic: string, args: readonly (InstanceArg | string)[]): string {
  return `${generic}<${args.map((a) => (typeof a === "string" ? a : argText(a))).join(", ")}>`;
}

function argText(a: InstanceArg): string {
  return a.kind === "type" ? typeToString(a.type) : a.kind === "fn" ? a.name : String(a.value);
}

/**
 * `reduce$f32$256`: the CUDA symbol of an instance whose definition's symbol is `base`. A
 * function argument that is itself an instance (`maximum<f32>`) is written as its own
 * symbol would be (`maximum$f32`).
 */
export function instanceSymbol(base: string, args: readonly InstanceArg[]): string {
  return [base, ...args.map((a) => (a.kind === "fn" ? a.name.replace(/<|, /g, "$").replace(/>/g, "") : argText(a).replace(/^-/, "m")))].join("$");
}

/** An instance as a string names it: the definition's name and each argument's text (a type's name, an integer, true or false). */
export interface ParsedInstance {
  readonly name: string;
  readonly args: readonly (string | bigint | boolean)[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads `reduce<f32, 256>` (spaces anywhere between the parts): undefined when `text` is
 * a plain name (no `<`), an error message when it is not an instance's spelling.
 */
export function parseInstanceSpelling(text: string): ParsedInstance | { readonly error: string } | undefined {
  const open = text.indexOf("<");
  if (open < 0) return undefined;
  const name = text.slice(0, open).trim();
  const close = text.trimEnd();
  if (!NAME.test(name) || !close.endsWith(">")) return { error: `'${text}' is not an instance's name, which is written like reduce<f32, 256>` };
  const parts = close.slice(open + 1, -1).split(",").map((p) => p.trim());
  const args: (string | bigint | boolean)[] = [];
  for (const p of parts) {
    if (p === "true" || p === "false") args.push(p === "true");
    else if (/^-?[0-9]+$/.test(p)) args.push(BigInt(p));
    else if (NAME.test(p)) args.push(p);
    else return { error: `'${p}' in '${text}' is neither a type nor an integer, true or false` };
  }
  return { name, args };
}
