/**
 * kernel() at run time with no build step (vitest runs the .ts files, and tsx): it finds its own
 * call in the source, compiles its file once, launches with the parameters' host values in
 * order, and throws the file's diagnostics for a file with errors. Compiled JavaScript with
 * source maps (Node 20) is tested on a real build in test/examples/ts.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roundF16 } from "../../src/ir/halves.js";
import { throughSourceMap } from "../../src/lang/site.js";
import { f16ToFloat32, float32ToF16 } from "../../src/runtime/halfArrays.js";
import { packStructs, unpackStructs } from "../../src/lang/structs.js";

beforeAll(() => {
  process.env.GK_DEVICE = "cpu";
});

describe("kernel() under vitest, no plugin", () => {
  it("runs the example saxpy written in TypeScript", async () => {
    const { saxpy } = await import("../../examples/saxpy.js");
    const out = new Float32Array(4);
    await saxpy({ grid: 1, block: 32 }, 4, 2.5, Float32Array.from([1, 2, 3, 4]), new Float32Array(4).fill(1), out);
    expect([...out]).toEqual([3.5, 6, 8.5, 11]);
    expect(saxpy.kernelName).toBe("saxpy");
    expect(saxpy.ir.kernels.map((k) => k.name)).toEqual(["saxpy"]);
    expect((await saxpy.module()).device).toBe("cpu");
  });

  it("tells the kernels of one file apart, two on one line included, and compiles the file once", async () => {
    const m = await import("./fixtures/two-kernels.js");
    expect([m.fill.kernelName, m.count.kernelName, m.also.kernelName]).toEqual(["fill", "count", "also"]);
    expect(m.fill.ir).toBe(m.count.ir);
    const out = new Float32Array(3);
    await m.fill({ grid: 1, block: 4 }, 3, 1.5, out);
    expect([...out]).toEqual([3, 3, 3]);
    const ints = new Int32Array(4);
    await m.count({ grid: 1, block: 4 }, 4, ints);
    expect([...ints]).toEqual([0, 1, 2, 3]);
    await m.also({ grid: 1, block: 1 }, ints);
    expect(ints[0]).toBe(7);
  });

  it("runs kernels over the small integers and halves: f16 arrays as their bits, arithmetic at the type's width", async () => {
    const { scaleHalves, addBytes } = await import("./fixtures/narrow-kernels.js");
    const out = new Uint16Array(4);
    await scaleHalves({ grid: 1, block: 4 }, 4, 1.5, float32ToF16([1, 2, 0.1, 65504]), out);
    expect([...f16ToFloat32(out)]).toEqual([1.5, 3, roundF16(roundF16(0.1) * 1.5), Infinity]);
    const bytes = new Int8Array(3);
    const steps = new Uint8Array(3);
    await addBytes({ grid: 1, block: 4 }, 100, 100, bytes, steps);
    expect([...bytes]).toEqual([100, -56, 44]); // 100 + 100 wraps to -56; 100 + 200: 200 is i8 -56, so 44
    expect([...steps]).toEqual([11, 12, 4]); // 250 + 10 wraps modulo 256
    await expect((scaleHalves as unknown as (...a: unknown[]) => Promise<void>)({ grid: 1, block: 1 }, 1, 1.5, new Float32Array(1), out)).rejects.toThrow(/parameter 'x' \(readonly global<f16>\) takes a Uint16Array/);
  });

  it("runs the TypeScript particles, sum4 and saxpy4 examples: a vector argument is its lanes as a tuple, an array of structs its bytes (updated in place), vectors load and store", async () => {
    const { step } = await import("../../examples/particles.js");
    const particle = step.ir.kernels.find((k) => k.name === "step")!.params[3]!.type;
    if (particle.kind !== "global" || particle.elem.kind !== "struct") throw new Error("step's ps is a global<Particle>");
    const ps = new Uint8Array(packStructs(particle.elem, [{ pos: [0, 4, 0], vel: [1, 0, 0], bounces: 0 }, { pos: [2, 1, 0], vel: [0, -5, 0], bounces: 0 }]));
    await step({ grid: 1, block: 32 }, 2, 0.5, [0, -10, 0], ps);
    expect(unpackStructs(particle.elem, ps)).toEqual([{ pos: [0.5, 1.5, 0], vel: [1, -5, 0], bounces: 0 }, { pos: [2, 4, 0], vel: [0, 10, 0], bounces: 1 }]);
    await expect(step({ grid: 1, block: 32 }, 2, 0.5, [0, -10] as never, ps)).rejects.toThrow(/gravity/);
    const { sum4 } = await import("../../examples/sum4.js");
    const total = new Float32Array(1);
    await sum4({ grid: 2, block: 64 }, 1000, Float32Array.from({ length: 1000 }, (_, i) => i), total);
    expect([...total]).toEqual([499500]);
    const { saxpy4 } = await import("../../examples/saxpy4.js");
    const out = new Float32Array(10);
    await saxpy4({ grid: 1, block: 32 }, 10, 2.5, Float32Array.from({ length: 10 }, (_, i) => i + 1), new Float32Array(10).fill(1), out);
    expect([...out]).toEqual([3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21, 23.5, 26]);
  });

  it("runs the TypeScript convolution and dynamic reduce examples: constants by name in config.constants, dynamic shared lengths in config.shared", async () => {
    const { convolveRows } = await import("../../examples/convolution.js");
    const src = Float32Array.from({ length: 512 }, (_, i) => i % 7);
    const dst = new Float32Array(512);
    const taps = new Float32Array(17);
    taps[8] = 2; // the centre tap alone: each output is twice its input
    await convolveRows({ grid: [1, 1], block: [16, 4], constants: { TAPS: taps } }, 128, src, dst);
    expect([...dst]).toEqual([...src].map((v) => 2 * v));
    await expect(convolveRows({ grid: [1, 1], block: [16, 4] }, 128, src, dst)).rejects.toThrow(/missing argument 'TAPS', a constant array it reads/);
    await expect(convolveRows({ grid: [1, 1], block: [16, 4], constants: 3 as never }, 128, src, dst)).rejects.toThrow(/'constants' gives the constant arrays it reads by name/);
    const { block_sum } = await import("../../examples/reduce_dynamic.js");
    const partial = new Float32Array(4);
    const total = new Float32Array(1);
    await block_sum({ grid: 4, block: 64, shared: { buf: 64 } }, 256, Float32Array.from({ length: 256 }, () => 1), partial, total);
    expect([...partial, ...total]).toEqual([64, 64, 64, 64, 256]);
    await expect(block_sum({ grid: 4, block: 64 }, 256, new Float32Array(256), partial, total)).rejects.toThrow(/missing the length of 'buf'/);
  });

  it("checks a launch's arguments: their number, then each as compile()'s modules do", async () => {
    const { fill } = await import("./fixtures/two-kernels.js");
    await expect((fill as unknown as (...a: unknown[]) => Promise<void>)({ grid: 1, block: 1 }, 3, 1.5)).rejects.toThrow(
      "GK8005: fill: takes 3 arguments after the launch configuration (n, v, out), got 2",
    );
    await expect((fill as unknown as (...a: unknown[]) => Promise<void>)({ grid: 1, block: 1 }, 3, 1.5, new Float64Array(3))).rejects.toThrow(
      "parameter 'out' (global<f32>) takes a Float32Array, got a Float64Array",
    );
  });

  it("a file whose kernels have errors throws its diagnostics where it is imported", async () => {
    await expect(import("./fixtures/bad-kernel.js")).rejects.toThrow(/bad-kernel\.ts:7:21 - error GK2050: 'scale' is a constant of the host/);
  });
});

describe("kernel() under tsx, a TypeScript runner", () => {
  it("finds its source and runs", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "test/lang/fixtures/run-two-kernels.ts"], {
      encoding: "utf8",
      env: { ...process.env, GK_DEVICE: "cpu" },
    });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe(JSON.stringify([3, 3, 3, 0, 1, 2, 3]));
  });
});

describe("finding the TypeScript source of compiled JavaScript", () => {
  let dir: string;
  const TS = "export const a = 1;\n\nexport const b = [a].map((x) => x + 1);\n";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gk-site-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** k.ts compiled by TypeScript into `dir`, as tsc writes it (compiled in this process: tsc's start-up takes seconds). */
  const compile = (map: "file" | "inline" | "none") => {
    const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
    const r = ts.transpileModule(TS, {
      fileName: "k.ts",
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: map === "file", inlineSourceMap: map === "inline" },
    });
    writeFileSync(join(dir, "k.ts"), TS);
    writeFileSync(join(dir, "k.js"), r.outputText);
    if (r.sourceMapText) writeFileSync(join(dir, "k.js.map"), r.sourceMapText);
    return r.outputText;
  };

  it("through a .js.map beside the file", () => {
    expect(compile("file")).toContain("sourceMappingURL=k.js.map");
    expect(throughSourceMap({ file: join(dir, "k.js"), line: 2, column: 18 })).toEqual({ file: join(dir, "k.ts"), line: 3, column: 18 });
  });

  it("through an inline source map", () => {
    expect(compile("inline")).toContain("sourceMappingURL=data:application/json;base64,");
    expect(throughSourceMap({ file: join(dir, "k.js"), line: 2, column: 18 })).toEqual({ file: join(dir, "k.ts"), line: 3, column: 18 });
  });

  it("without a source map, says what to do", () => {
    expect(compile("none")).not.toContain("sourceMappingURL");
    expect(throughSourceMap({ file: join(dir, "k.js"), line: 2, column: 18 })).toMatch(/is JavaScript without a source map.*"sourceMap": true.*tsx.*gk\/vite/);
  });
});
