// The browser example's build: gk/vite makes `import ... from "./saxpy.gk"` a module (and keeps
// its declaration, src/saxpy.d.gk.ts, up to date); "gk" is this repository's library (dist/lib,
// from `npm run build`), as an installed package would be.
import { fileURLToPath } from "node:url";
import gk from "gk/vite";
import { defineConfig } from "vite";

const lib = (file: string) => fileURLToPath(new URL(`../../dist/lib/${file}`, import.meta.url));

export default defineConfig({
  plugins: [gk()],
  resolve: {
    alias: [
      { find: /^gk$/, replacement: lib("index.js") },
      { find: /^gk\/modules$/, replacement: lib("modules/runtime.js") },
      // gk's loader names files with node:path's posix functions: pathe is them, for browsers.
      { find: /^(node:)?path$/, replacement: "pathe" },
    ],
  },
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    // gk's Node-only parts (nvcc, the GPU launcher, the TypeScript front end, Dawn's binding)
    // are loaded with import() where they are used, never on the page's roads: left out.
    rollupOptions: { external: ["execa", "ts-morph", "typescript", "fast-check", "vite", "webgpu"] },
  },
});
