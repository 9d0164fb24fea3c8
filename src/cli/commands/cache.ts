/** `gkc cache path | ls | clear`: where builds are kept, what is there, and emptying it. */
import { cacheRoot, clearCache, formatCacheTable, listEntries } from "../../build/cache.js";
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
  ls      list entries: key, architecture, kernels, size, age (--json for machine use)
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
      if (values.json) io.out(JSON.stringify(rows, (_, v) => v, 2));
      else io.out(rows.length ? formatCacheTable(rows) : `(empty) ${root}`);
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
