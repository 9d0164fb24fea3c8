#!/usr/bin/env node
// The gkc command: runs the bundled CLI in dist/gkc/ (built by `npm install`: scripts/bundle-cli.mjs).
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/gkc/main.js", import.meta.url);
let main;
try {
  ({ main } = await import(bundle.href));
} catch (e) {
  if (!(e && e.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes(fileURLToPath(bundle)))) throw e;
  console.error(`gkc: ${fileURLToPath(bundle)} is missing: build gk first (npm install, or npm run build)`);
  process.exit(70);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`gkc: internal error (a bug in gk): ${e && e.stack ? e.stack : e}`);
    process.exitCode = 70;
  },
);
