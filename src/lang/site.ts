/**
 * Where a kernel() call stands in its TypeScript source, found from the call stack: the
 * first frame outside gk. Under vitest, tsx and Node's type stripping that frame names the
 * `.ts` file itself; JavaScript compiled by tsc names the `.js` file, which its source map
 * (a `.js.map` beside it or inline) leads back to the `.ts` file (Node's module.SourceMap).
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export interface SourceSite {
  /** The TypeScript file. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
}

/**
 * gk's own code: its dist/ folder, and its src/ (which source maps lead stack traces back to).
 * Found at the first call, not when this module loads: a browser build loads it with node:url
 * and node:path as empty stand-ins.
 */
let gkDirs: readonly string[] | undefined;
function ownDirs(): readonly string[] {
  if (gkDirs) return gkDirs;
  const root = packageFolder(path.dirname(fileURLToPath(import.meta.url)));
  gkDirs = [path.join(root, "src"), path.join(root, "dist")].map((d) => d + path.sep);
  return gkDirs;
}
const FRAME = /(?:\(|\s)((?:file:\/\/)?\/[^()\s]*?|(?:file:\/\/)?[A-Za-z]:[\\/][^()]*?):(\d+):(\d+)\)?$/;
const TS_FILE = /\.(ts|mts|cts)$/;

/** The caller's site outside gk's own files; a message saying why not when it has no TypeScript source. */
export function callerSite(): SourceSite | string {
  const stack = new Error().stack ?? "";
  for (const line of stack.split("\n").slice(1)) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const file = m[1]!.startsWith("file://") ? fileURLToPath(m[1]!) : m[1]!;
    if (ownDirs().some((d) => file.startsWith(d))) continue;
    const site = { file, line: Number(m[2]), column: Number(m[3]) };
    return TS_FILE.test(file) ? site : throughSourceMap(site);
  }
  return "the call stack names no file (was kernel() called from eval or the REPL?)";
}

/** A site in compiled JavaScript, mapped back to its TypeScript source. */
export function throughSourceMap(site: SourceSite): SourceSite | string {
  const js = site.file;
  let text: string;
  try {
    text = readFileSync(js, "utf8");
  } catch {
    return `cannot read ${js} to find its TypeScript source`;
  }
  const url = /\/\/[#@] sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
  const noSource = `${js} is JavaScript without a source map, so gk cannot find the TypeScript source of its kernels: compile with "sourceMap": true (or "inlineSourceMap"), run the .ts file itself (vitest, tsx, Node 22.6+ with type stripping), or bundle with gk/vite`;
  if (!url) return noSource;
  let payload: SourceMapPayload & { sourceRoot?: string };
  let mapFile = js;
  try {
    if (url.startsWith("data:")) {
      const comma = url.indexOf(",");
      const data = url.slice(comma + 1);
      payload = JSON.parse(url.slice(0, comma).endsWith(";base64") ? Buffer.from(data, "base64").toString("utf8") : decodeURIComponent(data));
    } else {
      mapFile = path.resolve(path.dirname(js), decodeURIComponent(url));
      payload = JSON.parse(readFileSync(mapFile, "utf8"));
    }
  } catch {
    return `${js}: its source map cannot be read`;
  }
  const entry = new SourceMap(payload).findEntry(site.line - 1, site.column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
  if (entry.originalSource === undefined || entry.originalLine === undefined) return `${js}:${site.line}: its source map does not map this line`;
  const source = entry.originalSource.startsWith("file://")
    ? fileURLToPath(entry.originalSource)
    : path.resolve(path.dirname(mapFile), payload.sourceRoot ?? "", entry.originalSource);
  if (!TS_FILE.test(source)) return `${js}: its source map leads to ${source}, which is not TypeScript`;
  return { file: source, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
}

/** The nearest folder at or above `dir` with a package.json: gk's root, from src/, dist/ or a bundle chunk in dist/lib/chunks/ alike. */
function packageFolder(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, "package.json"))) return d;
    if (path.dirname(d) === d) return path.dirname(path.dirname(dir));
  }
}
