#!/usr/bin/env node
// The gkc command: runs the bundled CLI in dist/gkc/ (built by `npm install`: scripts/bundle-cli.mjs).
import { main } from "../dist/gkc/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`gkc: internal error (a bug in gk): ${e && e.stack ? e.stack : e}`);
    process.exitCode = 70;
  },
);
