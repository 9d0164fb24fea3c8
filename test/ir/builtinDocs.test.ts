import { readFileSync, writeFileSync } from "node:fs";
import { expect, it } from "vitest";
import { renderBuiltinDocs } from "../../src/ir/builtinDocs.js";

it("spec/builtins.md is rendered from the builtin table", () => {
  const path = new URL("../../spec/builtins.md", import.meta.url);
  const want = renderBuiltinDocs();
  if (process.env.GK_UPDATE_SPEC) writeFileSync(path, want);
  expect(readFileSync(path, "utf8")).toBe(want);
});
