// The example's tests run with gk/vite: .gk files import as modules, and TypeScript kernels
// are lowered when vitest transforms them.
import gk from "gk/vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [gk()],
  test: { name: "examples-ts", include: ["test/**/*.test.ts"] },
});
