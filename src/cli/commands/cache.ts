/** `gkc cache path | ls | clear`: where builds are kept, what is there, and emptying it. */
import { cacheRoot, clearCache, formatCacheTable, listEntries } from "../../build/cache.js";
import { formatAge, formatBytes } from "../../build/cache/maintenance.js";
import { listLowered, type LoweredRow } from "../../tsfront/cache.js";
import { EXIT, UsageError, type Io } from "../io.js";
import { parseArgs } from "node:util";
import { flags } from "../flags.js";

export const help = `gkc cache path | ls | clear [--json]

The kernel cache keeps every nvcc build (.cu, .ptx, .cubin and metadata), keyed by a
hash of the generated CUDA, the nvcc version, the flags, the GPU architecture and gk's
version, so a kernel that did not change is never rebuilt. It lives in $GK_CACHE_DIR,
else $XDG_CACHE_HOME/gk, else ~/.cache/gk (never under /proc, /sys or /dev). Every file
of an entry is checked before use (a regular file, never a link, of its recorded size and
sha256); a damaged entry is rebuilt. It also keeps TypeScript kernel files lowered, checked
the same way.

  path    print the cache folder
  ls      list entries: key, architecture, kernels, size, age; then the TypeScript
          kernel files lowered once (kept by content): file, size, age (--json for
          machine use: the entries, or {"entries", "lowerings"} where there are lowerings)
  clear   remove every entry (builds in progress in other processes are left alone)`;

export async function cache(args: string[], io: Io): Promise<number> {
  const { values, positionals } = flags(() => parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean" } } }));
  const [sub, ...rest] = positionals;
  if (rest.length) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const root = cacheRoot(io.env);
  switch (sub) {
    case "path":
      io.out(root);
      return EXIT.ok;
    case "ls": {
      const rows = await listEntries(root);
      const lowered = listLowered(root);
      if (values.json) io.out(JSON.stringify(lowered.length ? { entries: rows, lowerings: lowered } : rows, (_, v) => v, 2));
      else if (!rows.length && !lowered.length) io.out(`(empty) ${root}`);
      else io.out([...(rows.length ? [formatCacheTable(rows)] : []), ...(lowered.length ? [formatLowered(lowered)] : [])].join("\n\n"));
      return EXIT.ok;
    }
    case "clear": {
      const r = await clearCache(root);
      io.out(`removed ${r.entries} entr${r.entries === 1 ? "y" : "ies"} (${r.bytes} bytes) from ${root}${r.inProgress ? `; left ${r.inProgress} build(s) in progress` : ""}`);
      return EXIT.ok;
    }
    default:
      throw new UsageError(sub === undefined ? "gkc cache needs a subcommand: path, ls or clear" : `unknown cache subcommand '${sub}': use path, ls or clear`);
  }
}

/** The lowerings of TypeScript kernel files, as a table after the builds'. */
function formatLowered(rows: readonly LoweredRow[]): string {
  const table = [["TYPESCRIPT FILE", "SIZE", "AGE"], ...rows.map((r) => [r.file ?? `(unreadable: ${r.key.slice(0, 12)})`, formatBytes(r.sizeBytes), formatAge(r.ageMs)])];
  const widths = [0, 1, 2].map((c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines = table.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd());
  const total = rows.reduce((s, r) => s + r.sizeBytes, 0);
  lines.push("", `${rows.length} TypeScript file${rows.length === 1 ? "" : "s"} lowered, ${formatBytes(total)}`);
  return lines.join("\n");
}
