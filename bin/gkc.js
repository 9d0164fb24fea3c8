#!/usr/bin/env node
// The gkc command: runs the compiled CLI in dist/ (built by `npm install`).
import { main } from "../dist/cli/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`gkc: internal error (a bug in gk): ${e && e.stack ? e.stack : e}`);
    process.exitCode = 70;
  },
);
