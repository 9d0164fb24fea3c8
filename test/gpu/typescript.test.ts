// Kernels written in TypeScript on a real GPU: each example as examples/x.ts gives, for the
// .gk file's launch statements, outputs bit-identical to examples/x.gk's on the GPU, with
// and without FMA contraction (the same IR makes the same CUDA, so the same bits), as do
// spec/ok's small-integer and half programs and their TypeScript twins; and a
// program that imports a .gk kernel (gk/register) and launches it on the GPU ends without
// close(). Skipped, with a one-line reason, where there is no GPU.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AnyTypedArray } from "../../src/ir/values.js";
import { frontEnd } from "../../src/pipeline.js";
import { runLaunch } from "../../src/runtime/launches.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { createRunner, type Runner } from "../../src/runtime/runner.js";
import { gkProgram, SCALAR_TWINS } from "../tsfront/helpers.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/typescript.test.ts skipped: ${gpu.reason}`);

// Every example with a TypeScript twin (the generic ones have none yet: test/tsfront/examples.test.ts).
const examples = readdirSync("examples").filter((f) => f.endsWith(".ts")).map((f) => f.slice(0, -3)).sort();
const runners: Runner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

const bits = (a: AnyTypedArray) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

describe.skipIf(!gpu.ok)(gpu.ok ? `TypeScript kernels on ${gpu.reason}` : `TypeScript kernels on a GPU (skipped: ${gpu.reason})`, () => {
  // Each pair: the .gk program (with its launch statements) and its TypeScript twin.
  const pairs = [
    ...examples.map((name) => ({ gkFile: `examples/${name}.gk`, tsFile: `examples/${name}.ts`, gk: () => frontEnd(`examples/${name}.gk`) })),
    ...SCALAR_TWINS.map((twin) => ({ gkFile: twin.gk, tsFile: twin.ts, gk: () => gkProgram(twin) })),
  ];
  for (const pair of pairs) {
    for (const fmad of [false, true]) {
      it(`${pair.tsFile} and ${pair.gkFile} give bit-identical outputs on the GPU (${fmad ? "with" : "without"} FMA contraction)`, async () => {
        const gk = pair.gk();
        const ts = frontEnd(pair.tsFile);
        expect(gk.ir && ts.ir).toBeDefined();
        const tsIr = { ...ts.ir!, launches: gk.ir!.launches };
        const a = createRunner(gk.ir!, gk.sources, await openDevice({ device: "cuda" }), { fmad });
        const b = createRunner(tsIr, ts.sources, await openDevice({ device: "cuda" }), { fmad });
        runners.push(a, b);
        for (const l of gk.ir!.launches) {
          const x = await runLaunch(gk.ir!, l, a);
          const y = await runLaunch(tsIr, l, b);
          expect(y.device).toBe("cuda");
          for (const [param, out] of x.outputs) expect(bits(y.outputs.get(param)!.data), `${pair.tsFile}: ${param}`).toBe(bits(out.data));
        }
      });
    }
  }

  it("a program importing a .gk kernel and launching it on the GPU ends without close()", () => {
    const dir = mkdtempSync(join(tmpdir(), "gk-gpu-import-"));
    try {
      copyFileSync("examples/saxpy.gk", join(dir, "saxpy.gk"));
      writeFileSync(
        join(dir, "app.mjs"),
        `import mod, { saxpy } from "./saxpy.gk";\nconst x = Float32Array.from([1, 2]);\n` +
          `const { out } = await saxpy({ grid: 1, block: 32 }, { n: 2, alpha: 2, x, y: x, out: new Float32Array(2) });\nconsole.log(mod.device, JSON.stringify([...out]));\n`,
      );
      const r = spawnSync(process.execPath, ["--import", resolve("dist/modules/register.js"), join(dir, "app.mjs")], {
        encoding: "utf8",
        timeout: 120_000,
        env: { ...process.env, GK_DEVICE: "cuda" },
      });
      expect(r.error, "the program did not end by itself").toBeUndefined();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe("cuda [3,6]");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
