/**
 * Instances of generic kernels on a real GPU: named from TypeScript with `with()` (one the
 * launch statements made, built in the module, and one made on demand, built alone), and by
 * name through gk/testing; each agrees with the simulator bit for bit (built without FMA
 * contraction), under the documented extern "C" symbol. Skipped, with a one-line reason,
 * where there is no GPU.
 *
 *   npx vitest run test/gpu/generics.test.ts
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frontEnd } from "../../src/pipeline.js";
import { compile } from "../../src/runtime/api.js";
import { buildModule } from "../../src/build/build.js";
import { instanceByName, instanceModule } from "../../src/runtime/instances.js";
import { GkCompileError } from "../../src/runtime/api.js";
import { compareCpuGpu } from "../../src/testing/cpuGpu.js";
import { gpuAvailable } from "./gpu-available.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/generics.test.ts skipped: ${gpu.reason}`);

let cacheRoot: string;
beforeAll(async () => {
  cacheRoot = await mkdtemp(path.join(os.tmpdir(), "gk-generics-cache-"));
});
afterAll(async () => {
  await rm(cacheRoot, { recursive: true, force: true });
});

const N = 5000;
const ints = Int32Array.from({ length: N }, (_, i) => ((i * 2654435761) % 2001) - 1000);

describe.skipIf(!gpu.ok)(gpu.ok ? `generic kernels on ${gpu.reason}` : `generic kernels on a GPU (skipped: ${gpu.reason})`, () => {
  it("with() runs instances on the GPU as on the simulator, made by launch statements or not", { timeout: 300_000 }, async () => {
    const onGpu = await compile("examples/reduce_generic.gk", { device: "cuda", fmad: false, cacheRoot });
    const onCpu = await compile("examples/reduce_generic.gk", { device: "cpu" });
    try {
      expect(onGpu.device).toBe("cuda");
      const cases = [
        { args: { T: "i32", BLOCK: 128 }, x: ints },
        { args: { T: "i32", BLOCK: 64 }, x: ints },
        { args: { T: "f64", BLOCK: 1024 }, x: Float64Array.from(ints, (v) => v / 7) },
        { args: { T: "f32", BLOCK: 32 }, x: Float32Array.from(ints, (v) => v / 8) },
      ] as const;
      for (const c of cases) {
        const block = c.args.BLOCK;
        const blocks = Math.ceil(N / block);
        const ctor = c.x.constructor as new (n: number) => Int32Array | Float32Array | Float64Array;
        const make = () => ({ n: N, x: c.x, partial: new ctor(blocks), total: new ctor(1) });
        const want = make();
        const got = make();
        await onCpu.block_sum.with(c.args)({ grid: blocks, block }, want);
        await onGpu.block_sum.with(c.args)({ grid: blocks, block }, got);
        expect([...got.partial], `partial of ${JSON.stringify(c.args)}`).toEqual([...want.partial]);
        // Integers add up exactly in any order; floats: the blocks' atomics come in any order.
        const scale = [...want.partial].reduce((a, v) => a + Math.abs(v), 0);
        if (c.args.T === "i32") expect([...got.total]).toEqual([...want.total]);
        else expect(Math.abs(got.total[0]! - want.total[0]!)).toBeLessThanOrEqual(blocks * 2 ** -23 * scale);
      }
    } finally {
      await onGpu.close();
      await onCpu.close();
    }
  });

  it("an instance built alone has the documented symbol, and the cache builds it once", { timeout: 300_000 }, async () => {
    const fe = frontEnd("examples/reduce_generic.gk");
    const wanted = instanceByName(fe.ir!, "block_sum<i32, 64>")!;
    const m = instanceModule(fe.ir!, fe.sources, wanted, (r) => new GkCompileError(r.diagnostics, r.sources));
    const arch = gpu.device!.arch;
    const first = await buildModule(m, fe.sources, { arch, cacheRoot });
    expect(first.symbols.get("block_sum<i32, 64>")).toBe("block_sum$i32$64");
    // first.ptx is the path of the cached PTX.
    expect(await readFile(first.ptx, "utf8")).toContain(".entry block_sum$i32$64(");
    const again = instanceModule(fe.ir!, fe.sources, wanted, (r) => new GkCompileError(r.diagnostics, r.sources));
    const second = await buildModule(again, fe.sources, { arch, cacheRoot });
    expect(second.hit).toBe(true);
    expect(second.key).toBe(first.key);
  });

  it("gk/testing compares an instance named in a string", { timeout: 300_000 }, async () => {
    const source = await readFile("examples/reduce_generic.gk", "utf8");
    const blocks = Math.ceil(N / 256);
    const r = await compareCpuGpu(source, "block_sum<i32, 256>", { grid: blocks, block: 256 }, { n: N, x: ints, partial: new Int32Array(blocks), total: new Int32Array(1) });
    expect(r.ok, r.message).toBe(true);
  });
});
