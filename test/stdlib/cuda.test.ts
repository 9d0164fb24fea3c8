// The standard library's kernels through nvcc: every instance the host calls launch builds to a cubin for sm_90 without a
// warning (where nvcc is installed; no GPU needed).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildModule } from "../../src/build/build.js";
import { nodeHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { findNvcc } from "../gpu/gpu-available.js";

const nvcc = await findNvcc();
if (!nvcc) console.warn("test/stdlib/cuda.test.ts skipped: no nvcc");
let cacheRoot: string | undefined;
afterAll(async () => {
  if (cacheRoot) await rm(cacheRoot, { recursive: true, force: true });
});

describe.skipIf(!nvcc)("gk/std through nvcc", () => {
  it("builds every host-call instance for sm_90 without warnings", { timeout: 300_000 }, async () => {
    cacheRoot = await mkdtemp(path.join(os.tmpdir(), "gk-stdlib-cuda-"));
    const fe = frontEnd(path.resolve("test/stdlib/fixtures/instances.gk"), { host: nodeHost });
    expect(fe.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const warnings: string[] = [];
    const b = await buildModule(fe.ir!, fe.sources, { arch: "sm_90", cacheRoot, onWarning: (w: unknown) => warnings.push(String(w)) });
    expect(warnings).toEqual([]);
    expect([...b.symbols.values()]).toContain("scan$f32$0$512$32$false");
    expect([...b.symbols.values()]).toContain("scanPacked$f32$0$512$32$false$2$1$16");
    expect(b.symbols.size).toBe(30);
  });
});
