/**
 * The generated CUDA of every example, compared with test/codegen/cuda/golden/<example>.cu
 * exactly (vitest file snapshots). `npx vitest run test/codegen/cuda -u` rewrites the golden
 * files; review the diff before committing it. In CI a missing golden file fails.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitCuda } from "../../../src/codegen/cuda/index.js";
import { frontEnd } from "../../../src/pipeline.js";

const EXAMPLES = "examples";
const GOLDEN = path.join("test", "codegen", "cuda", "golden");

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
    it(file, async () => {
      await expect(exampleCuda(file)).toMatchFileSnapshot(path.resolve(GOLDEN, file.replace(/\.gk$/, ".cu")));
    });
  }

  it("is deterministic: the same IR gives the same text", () => {
    for (const file of examples) expect(exampleCuda(file)).toBe(exampleCuda(file));
  });
});
