#!/usr/bin/env node
/**
 * Bundles gk's library entry points with esbuild into dist/lib/ (run by `npm run build`, after
 * tsc): `gk`, `gk/testing`, `gk/register` (and the module hooks it registers), `gk/vite` and
 * `gk/modules`, the files package.json's "exports" name. One build with code splitting, so a
 * module that several entry points use is one chunk, loaded once (configure() in `gk` and the
 * modules `gk/register` makes share their state), and each part of the runtime loaded with
 * import() (the simulator, nvcc and the launcher client, the GPU engines) stays a chunk of its
 * own. chevrotain is bundled: `import "gk"` reads a few dozen files instead of ~840 ES
 * modules. Outside the bundle, loaded from node_modules where they are used: ts-morph (on the
 * first TypeScript kernel that is not in the lowering cache), execa (the first nvcc run),
 * fast-check (gk/testing's arbitraries) and vite.
 *
 * The types stay tsc's (dist/*.d.ts). Source maps sit beside each file with gk's sources in
 * them (sourcesContent; a bundled dependency's only by name), so a stack trace under
 * --enable-source-maps or a debugger shows gk's TypeScript although the package ships no src/.
 *
 * Also writes build/gk-lib-bundle.json, esbuild's account of which source file went into
 * which chunk.
 *
 *   node scripts/bundle-lib.mjs
 */
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const LIB_DIR = join(root, "dist", "lib");
export const LIB_METAFILE = join(root, "build", "gk-lib-bundle.json");

/** Entry points, by their path under dist/lib/ (without .js): the files package.json's "exports" name. */
export const ENTRIES = {
  index: "src/index.ts",
  "testing/index": "src/testing/index.ts",
  "modules/register": "src/modules/register.ts",
  "modules/hooks": "src/modules/hooks.ts",
  "modules/vite": "src/modules/vite.ts",
  "modules/runtime": "src/modules/runtime.ts",
};

export async function bundleLib() {
  rmSync(LIB_DIR, { recursive: true, force: true });
  const r = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: LIB_DIR,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["execa", "ts-morph", "typescript", "fast-check", "vite"],
    sourcemap: "linked",
    sourcesContent: true,
    metafile: true,
    logLevel: "warning",
  });
  checkRuntimeUrl(r.metafile);
  for (const out of Object.keys(r.metafile.outputs)) if (out.endsWith(".map")) dependencySourcesByName(join(root, out));
  mkdirSync(dirname(LIB_METAFILE), { recursive: true });
  writeFileSync(LIB_METAFILE, JSON.stringify(r.metafile, null, 1));
  return r.metafile;
}

/** Drops the text of bundled dependencies (chevrotain, lodash-es) from a source map: megabytes nobody debugs. */
function dependencySourcesByName(mapFile) {
  const map = JSON.parse(readFileSync(mapFile, "utf8"));
  map.sourcesContent = map.sources.map((s, i) => (s.includes("node_modules/") ? null : map.sourcesContent[i]));
  writeFileSync(mapFile, JSON.stringify(map));
}

/**
 * src/modules/code.ts names the runtime of an imported .gk module as `../modules/runtime.js`
 * beside itself: wherever esbuild put it, that must be the `gk/modules` entry point.
 */
function checkRuntimeUrl(meta) {
  const runtime = posix.join("dist", "lib", "modules", "runtime.js");
  for (const [out, { inputs }] of Object.entries(meta.outputs)) {
    if (!("src/modules/code.ts" in inputs)) continue;
    const target = posix.join(posix.dirname(out), "..", "modules", "runtime.js");
    if (target !== runtime) throw new Error(`bundle-lib: ${out} holds src/modules/code.ts, whose ../modules/runtime.js is ${target}, not ${runtime}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bundleLib();
