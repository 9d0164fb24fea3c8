/**
 * `node --import gk/register app.js`: lets the program import `.gk` files as ES modules
 * (hooks.ts). Kernels written in TypeScript need no hook: kernel() finds its own source.
 */
import { register } from "node:module";

register("./hooks.js", import.meta.url);
