/**
 * The names that the headers nvcc puts in front of every `.cu`, and the ones the backend
 * includes where a module uses f16 or bf16 (cuda_fp16.h, cuda_bf16.h), define as macros or declare
 * at global scope, read from the installed nvcc: `nvcc -E -Xcompiler -dM` for macros, and a
 * small scan of `nvcc -E` output for declarations (functions, variables, typedefs, tags,
 * enumerators and `using` declarations outside any namespace or class). Names that start
 * with an underscore are left out: the backend reserves that prefix as a whole.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { CUDA } from "../../../src/codegen/cuda/settings.js";

export interface HeaderNames {
  readonly macros: ReadonlySet<string>;
  readonly declarations: ReadonlySet<string>;
}

export async function headerNames(nvcc: string): Promise<HeaderNames> {
  const dir = mkdtempSync(path.join(tmpdir(), "gk-header-names-"));
  try {
    const cu = path.join(dir, "empty.cu");
    writeFileSync(cu, Object.values(CUDA.half).map((h) => `#include <${h.header}>\n`).join(""));
    const [defs, pre] = await Promise.all([
      execa(nvcc, ["-arch=sm_90", "-E", "-Xcompiler", "-dM", cu, "-o", path.join(dir, "macros.txt")]),
      execa(nvcc, ["-arch=sm_90", "-E", cu, "-o", path.join(dir, "empty.ii")]),
    ]);
    void defs;
    void pre;
    const macros = new Set(
      readFileSync(path.join(dir, "macros.txt"), "utf8")
        .split("\n")
        .flatMap((l) => /^#define ([A-Za-z]\w*)/.exec(l)?.[1] ?? []),
    );
    return { macros, declarations: globalDeclarations(readFileSync(path.join(dir, "empty.ii"), "utf8")) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NOT_NAMES = new Set(
  (
    "alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class const consteval constexpr " +
    "constinit const_cast continue decltype default delete do double dynamic_cast else enum explicit export extern " +
    "false float for friend goto if inline int long mutable namespace new noexcept nullptr operator private protected " +
    "public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct " +
    "switch template this thread_local throw true try typedef typeid typename union unsigned using virtual void " +
    "volatile wchar_t while"
  ).split(" "),
);

const isName = (t: string | undefined): t is string => t !== undefined && /^[A-Za-z_]\w*$/.test(t) && !NOT_NAMES.has(t);

/** Names declared at global scope (or in `extern "C"` blocks) of a preprocessed C++ file. */
export function globalDeclarations(preprocessed: string): Set<string> {
  const text = preprocessed
    .split("\n")
    .filter((l) => !l.startsWith("#"))
    .join("\n");
  const tokens = text.match(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[A-Za-z_]\w*|\d[\w.]*|::|[^\s\w]/g) ?? [];
  const names = new Set<string>();
  const scopes: ("linkage" | "other")[] = [];
  let decl: string[] = [];
  let parens = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (scopes.some((s) => s !== "linkage")) {
      if (t === "{") scopes.push("other");
      else if (t === "}") scopes.pop();
      continue;
    }
    if (t === "(") parens++;
    if (t === ")") parens--;
    if (parens > 0 || t === ")") {
      decl.push(t);
      continue;
    }
    if (t === "{") {
      if (decl.length === 2 && decl[0] === "extern" && decl[1]!.startsWith('"')) scopes.push("linkage");
      else if (decl.includes("enum") && !decl.includes("(")) {
        declarationNames(decl, names);
        k = enumerators(tokens, k, names);
      } else {
        if (decl[0] !== "namespace") declarationNames(decl, names);
        scopes.push("other");
      }
      decl = [];
      continue;
    }
    if (t === "}") {
      scopes.pop();
      decl = [];
      continue;
    }
    if (t === ";") {
      declarationNames(decl, names);
      decl = [];
      continue;
    }
    decl.push(t);
  }
  return new Set([...names].filter((n) => !n.startsWith("_")));
}

/** The names one declaration (tokens up to `;` or `{`) introduces. */
function declarationNames(d: readonly string[], names: Set<string>): void {
  if (d.length === 0 || d[0] === "template" || d[0] === "static_assert") return;
  if (d[0] === "using") {
    const last = d[d.length - 1];
    if (!d.includes("=") && isName(last)) names.add(last);
    return;
  }
  for (let j = 0; j + 1 < d.length; j++) {
    if (["struct", "class", "union", "enum"].includes(d[j]!) && isName(d[j + 1])) names.add(d[j + 1]!);
  }
  const typedef = d.includes("typedef");
  let depth = 0;
  let last: string | undefined;
  for (let j = 0; j < d.length; j++) {
    const t = d[j]!;
    if (t === "(") {
      if (depth === 0 && isName(last)) names.add(last);
      depth++;
      last = undefined;
    } else if (t === ")") {
      depth--;
    } else if (depth > 0) {
      // A typedef of a function pointer: `typedef void (*name)(...)`.
      if (typedef && d[j - 1] === "*" && d[j - 2] === "(" && d[j + 1] === ")" && isName(t)) names.add(t);
    } else if (/^[A-Za-z_]\w*$/.test(t)) {
      last = t;
    } else if ((t === "," || t === "=" || t === "[") && isName(last)) {
      names.add(last);
      last = undefined;
    } else if (t !== "*" && t !== "&") {
      last = undefined;
    }
  }
  if (isName(last)) names.add(last);
}

/** Adds the enumerators of the enum body that opens at `tokens[open]`; returns the index of its `}`. */
function enumerators(tokens: readonly string[], open: number, names: Set<string>): number {
  let depth = 0;
  let expectName = true;
  for (let j = open; j < tokens.length; j++) {
    const u = tokens[j]!;
    if (u === "{" || u === "(") depth++;
    else if (u === "}" || u === ")") {
      if (--depth === 0) return j;
    } else if (depth === 1 && u === ",") expectName = true;
    else if (depth === 1 && expectName && isName(u)) {
      names.add(u);
      expectName = false;
    }
  }
  return tokens.length - 1;
}
