#!/usr/bin/env node
/**
 * Bundles the gkc command with esbuild into dist/gkc/ (run by `npm run build`, after tsc):
 * src/cli/main.ts and everything it loads, chevrotain included, so that starting gkc
 * reads a handful of files instead of several hundred ES modules. Each command, and each
 * part of the runtime loaded with import() (the simulator, the build and launcher client),
 * stays a chunk of its own, loaded only when it is used. bin/gkc.js runs dist/gkc/main.js.
 *
 * execa stays outside the bundle: nvcc.ts loads it from node_modules on the first nvcc run.
 * The library entry points (`gk`, `gk/testing`, ...) are bundled the same way by bundle-lib.mjs.
 *
 * Also writes build/gkc-bundle.json, esbuild's account of which source files went into which
 * chunk; test/cli/startup.test.ts reads it to check what each command loads.
 *
 *   node scripts/bundle-cli.mjs
 */
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLE_DIR = join(root, "dist", "gkc");
export const METAFILE = join(root, "build", "gkc-bundle.json");

export async function bundleCli() {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const r = await build({
    absWorkingDir: root,
    entryPoints: { main: "src/cli/main.ts" },
    outdir: BUNDLE_DIR,
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["execa"],
    metafile: true,
    logLevel: "warning",
  });
  mkdirSync(dirname(METAFILE), { recursive: true });
  writeFileSync(METAFILE, JSON.stringify(r.metafile, null, 1));
  return r.metafile;
}

if (import.meta.url === `file://${process.argv[1]}`) await bundleCli();
