/** spec/builtins.md is a vitest file snapshot of the table's docs: `npx vitest run test/ir/builtinDocs.test.ts -u` rewrites it. */
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { renderBuiltinDocs } from "../../src/ir/builtinDocs.js";

it("spec/builtins.md is rendered from the builtin table", async () => {
  await expect(renderBuiltinDocs()).toMatchFileSnapshot(fileURLToPath(new URL("../../spec/builtins.md", import.meta.url)));
});
