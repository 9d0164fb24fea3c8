// Every example on a real GPU: each launch statement runs on the GPU and on the simulator
// and the outputs agree (bit for bit when built without FMA contraction, within a small
// relative tolerance with it or with fast builtins); `gkc run` prints the same line on both; a faulting kernel
// gives its CUDA error by name and the next launch works. Skipped, with a one-line reason,
// where there is no GPU.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { readScalar } from "../../src/ir/composite.js";
import { leaves, type ValueType } from "../../src/ir/types.js";
import { mathBuiltin } from "../../src/ir/builtins.js";
import type { Module } from "../../src/ir/nodes.js";
import type { AnyTypedArray } from "../../src/ir/values.js";
import { visit } from "../../src/ir/walk.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { GkRuntimeError } from "../../src/runtime/launcher.js";
import { runLaunch } from "../../src/runtime/launches.js";
import { openDevice } from "../../src/runtime/device/device.js";
import { createRunner, type Runner } from "../../src/runtime/runner.js";
import { compareValues, describeMismatches } from "../../src/testing/compare.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/examples.test.ts skipped: ${gpu.reason}`);

const examples = readdirSync("examples").filter((f) => f.endsWith(".gk")).sort();
const runners: Runner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
});

function usesFastBuiltins(ir: Module): boolean {
  let found = false;
  for (const f of [...ir.functions, ...ir.kernels]) visit(f.body, { expr: (e) => void (found ||= e.kind === "builtin" && mathBuiltin(e.name)?.fast !== undefined) });
  return found;
}

function bitsOf(a: AnyTypedArray): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");
}

/** Float outputs agree within `rel` of the largest magnitude; others exactly; structs leaf by leaf, so. */
function close(elem: ValueType, a: AnyTypedArray, b: AnyTypedArray, rel: number): string | undefined {
  if (elem.kind === "struct") {
    const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
    const floats = leaves(elem).filter((l) => l.type.name === "f32" || l.type.name === "f64");
    let scale = 0;
    for (let at = 0; at < a.byteLength; at += elem.size) for (const l of floats) scale = Math.max(scale, Math.abs(readScalar(l.type, view, at + l.offset) as number));
    const diffs = compareValues("output", elem, a, b, { abs: rel * scale }).flatMap((c) => describeMismatches(c, ["simulator", "GPU"]));
    return diffs.length ? diffs.join("\n") : undefined;
  }
  if (!(a instanceof Float32Array || a instanceof Float64Array)) return bitsOf(a) === bitsOf(b) ? undefined : "integer outputs differ";
  let scale = 0;
  for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(a[i]!));
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = (b as Float32Array)[i]!;
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    if (Math.abs(x - y) > rel * scale) return `element ${i}: simulator ${x}, GPU ${y}`;
  }
  return undefined;
}

describe.skipIf(!gpu.ok)(gpu.ok ? `examples on ${gpu.reason}` : `examples on a GPU (skipped: ${gpu.reason})`, () => {
  for (const file of examples) {
    for (const fmad of [false, true]) {
      it(`${file}: GPU equals simulator (${fmad ? "with FMA contraction, within 1e-5" : "no FMA contraction, bit for bit (fast builtins within 1e-5)"})`, async () => {
        const fe = frontEnd(join("examples", file));
        expect(fe.ir).toBeDefined();
        const ir = fe.ir!;
        // The fast builtins (fastExp, ...) are within their bounds of the simulator's accurate values, never bit for bit.
        const approximate = fmad || usesFastBuiltins(ir);
        const cpu = createRunner(ir, fe.sources, await openDevice({ device: "cpu" }));
        const cuda = createRunner(ir, fe.sources, await openDevice({ device: "cuda" }), { fmad });
        runners.push(cuda);
        for (const l of ir.launches) {
          const want = await runLaunch(ir, l, cpu);
          const got = await runLaunch(ir, l, cuda);
          expect(got.device).toBe("cuda");
          for (const [name, w] of want.outputs) {
            const g = got.outputs.get(name)!;
            if (approximate) expect(close(w.elem, w.data, g.data, 1e-5), `${file}: ${name}`).toBeUndefined();
            else expect(bitsOf(g.data), `${file}: ${name}`).toBe(bitsOf(w.data));
          }
        }
      });
    }
  }

  it("gkc run prints the same saxpy line on the GPU and on the simulator", async () => {
    const onGpu = await execa("node", ["bin/gkc.js", "run", "examples/saxpy.gk"]);
    const onCpu = await execa("node", ["bin/gkc.js", "run", "examples/saxpy.gk", "--device", "cpu"]);
    expect(onGpu.stdout).toBe("out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]");
    expect(onCpu.stdout).toBe(onGpu.stdout);
    expect(onGpu.stderr).toMatch(/running on GPU 0/);
  });

  it("a kernel that writes far out of bounds gives its CUDA error by name, and the next launch works", async () => {
    const src = [
      "device_kernel wild(out: global<f32>) { out[globalId.x + 1000000000] = 1.0; }",
      "device_kernel ok(out: global<f32>) { out[globalId.x] = f32(globalId.x); }",
    ].join("\n");
    const fe = frontEnd("wild.gk", { host: memoryHost({ "wild.gk": src }) });
    const runner = createRunner(fe.ir!, fe.sources, await openDevice({ device: "cuda" }));
    runners.push(runner);
    const out = new Float32Array(64);
    const err = await runner.run("wild", [1, 1, 1], [64, 1, 1], [out]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GkRuntimeError);
    // Which name depends on where the address lands (measured on an H100: INVALID_ADDRESS_SPACE 4 GB past the buffer).
    expect((err as GkRuntimeError).diagnostic.message).toMatch(/CUDA_ERROR_(ILLEGAL_ADDRESS|INVALID_ADDRESS_SPACE)/);
    await runner.run("ok", [1, 1, 1], [64, 1, 1], [out]);
    expect(out[63]).toBe(63);
  });

});
