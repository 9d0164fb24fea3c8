/** spec/builtins.md is a vitest file snapshot of the table's docs: `npx vitest run test/ir/builtinDocs.test.ts -u` rewrites it. */
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { renderBuiltinDocs } from "../../src/ir/builtinDocs.js";
import { cudaF32Function } from "../../src/codegen/cuda/mathBuiltins.js";

it("spec/builtins.md is rendered from the builtin table", async () => {
  await expect(renderBuiltinDocs(cudaF32Function)).toMatchFileSnapshot(fileURLToPath(new URL("../../spec/builtins.md", import.meta.url)));
});
