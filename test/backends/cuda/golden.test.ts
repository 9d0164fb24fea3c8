/**
 * The generated CUDA of every example, compared with test/backends/cuda/golden/<example>.cu
 * exactly. `GK_UPDATE_GOLDEN=1 npx vitest run test/codegen` rewrites the golden files;
 * review the diff before committing it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/backends/cuda/index.js";
import { frontEnd } from "../../../src/pipeline.js";

const EXAMPLES = "examples";
const GOLDEN = path.join("test", "backends", "cuda", "golden");
const update = process.env.GK_UPDATE_GOLDEN === "1";

const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith(".gk")).sort();

/** The CUDA that `gkc cuda examples/<name>.gk` prints (no version, so that releases do not churn the goldens). */
export function exampleCuda(file: string): string {
  const r = frontEnd(path.join(EXAMPLES, file));
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return emitCuda(r.ir!, { sources: r.sources }).source;
}

describe("golden CUDA of the examples", () => {
  it("has an example to test", () => expect(examples.length).toBeGreaterThan(0));

  for (const file of examples) {
    it(file, () => {
      const cuda = exampleCuda(file);
      const golden = path.join(GOLDEN, file.replace(/\.gk$/, ".cu"));
      if (update || !existsSync(golden)) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(golden, cuda);
        if (!update) throw new Error(`${golden} did not exist; it has been written: review it, then run the tests again`);
      }
      expect(cuda).toBe(readFileSync(golden, "utf8"));
    });
  }

  it("is deterministic: the same IR gives the same text", () => {
    for (const file of examples) expect(exampleCuda(file)).toBe(exampleCuda(file));
  });
});
