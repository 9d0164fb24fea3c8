/**
 * The small integers and f16/bf16 on a real GPU, through both launcher paths: spec/ok's
 * programs for them run on the GPU (a --serve session, built without FMA contraction) and on
 * the simulator and agree (bit for bit, but `exp` on f16, within its ulp); and a kernel with
 * 1- and 2-byte scalar and array arguments runs one-shot (JSON) and in a session with the
 * exact results. Skipped, with a one-line reason, where there is no GPU.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mathBuiltin } from "../../src/ir/builtins.js";
import { fromF16Bits } from "../../src/ir/halves.js";
import type { ScalarName } from "../../src/ir/types.js";
import { memoryHost } from "../../src/load/program.js";
import { frontEnd } from "../../src/pipeline.js";
import { buildModule } from "../../src/build/build.js";
import { f16ToFloat32, float32ToBf16, float32ToF16 } from "../../src/runtime/halfArrays.js";
import { LauncherSession, launchOnce, type KernelArg } from "../../src/runtime/launcher.js";
import type { Runner } from "../../src/runtime/runner.js";
import { compareArrays, describeMismatches } from "../../src/testing/compare.js";
import { gpuAvailable } from "./gpu-available.js";
import { specLaunchesBothWays } from "./spec-launches.js";

const gpu = await gpuAvailable();
if (!gpu.ok) console.warn(`test/gpu/scalars.test.ts skipped: ${gpu.reason}`);

const runners: Runner[] = [];
const sessions: LauncherSession[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
  for (const s of sessions) await s.close();
});

const KERNEL = `device_kernel narrow(a: i8, h: f16, b: u16, g: bf16, x: readonly global<u8>, y: readonly global<f16>, o8: global<i8>, o16: global<u16>, oh: global<f16>, ob: global<bf16>) {
  const t = globalId.x;
  o8[t] = a * i8(x[t]);
  o16[t] = b + u16(x[t]);
  oh[t] = y[t] * h;
  ob[t] = bf16(y[t]) + g;
  atomicAdd(o16, 32, 1);
}
`;

describe.skipIf(!gpu.ok)(gpu.ok ? `small integers and halves on ${gpu.reason}` : `small integers and halves on a GPU (skipped: ${gpu.reason})`, () => {
  for (const file of ["small_ints.gk", "halves.gk"]) {
    it(`spec/ok/${file}: the GPU computes what the simulator computes`, async () => {
      const { ir, pairs } = await specLaunchesBothWays(file, runners);
      for (const { launch: l, want, got } of pairs) {
        expect(got.device).toBe("cuda");
        const kernel = ir.kernels.find((k) => k.name === l.kernel)!;
        for (const [name, w] of want.outputs) {
          const p = kernel.params.find((q) => q.name === name)!;
          const elem = (p.type as { elem: { name: ScalarName } }).elem.name;
          const cmp = compareArrays(name, elem, w.data, got.outputs.get(name)!.data);
          // halves.gk: outH[8] is exp(scale) on f16, within the table's ulp (+1 for the simulator's rounding).
          const diffs = cmp.first.filter((d) => !(file === "halves.gk" && name === "outH" && d.index === 8 && (d.ulps ?? 99n) <= BigInt(mathBuiltin("exp")!.ulp.f16 + 1)));
          expect(diffs, describeMismatches(cmp).join("\n")).toEqual([]);
        }
      }
    });
  }

  it("1- and 2-byte scalars and arrays reach a kernel exactly, one-shot and in a session", async () => {
    const fe = frontEnd("narrow.gk", { host: memoryHost({ "narrow.gk": KERNEL }) });
    const build = await buildModule(fe.ir!, fe.sources, { arch: gpu.device!.arch, fmad: false });
    const x = Uint8Array.from({ length: 32 }, (_, i) => i * 8);
    const yValues = Array.from({ length: 32 }, (_, i) => i / 4 - 3);
    const args: KernelArg[] = [
      { kind: "scalar", type: "i8", value: -3 },
      { kind: "scalar", type: "f16", value: 0.1 },
      { kind: "scalar", type: "u16", value: 65500 },
      { kind: "scalar", type: "bf16", value: 1000 },
      { kind: "array", elem: "u8", data: x, copyBack: false },
      { kind: "array", elem: "f16", data: float32ToF16(yValues), copyBack: false },
      { kind: "array", elem: "i8", length: 32, copyBack: true },
      { kind: "array", elem: "u16", length: 33, copyBack: true },
      { kind: "array", elem: "f16", length: 32, copyBack: true },
      { kind: "array", elem: "bf16", length: 32, copyBack: true },
    ];
    const h = fromF16Bits(float32ToF16([0.1])[0]!);
    const want = {
      o8: Array.from(x, (v) => Number(BigInt.asIntN(8, BigInt(-3 * v)))),
      o16: [...Array.from(x, (v) => (65500 + v) & 0xffff), 32],
      oh: [...f16ToFloat32(float32ToF16(yValues.map((v) => v * h)))],
      ob: [...float32ToBf16(yValues.map((v) => v + 1000))],
    };
    const session = new LauncherSession({});
    sessions.push(session);
    const symbol = build.symbols.get("narrow")!;
    for (const run of [
      () => launchOnce({ module: build.cubin, kernel: symbol, grid: [1, 1, 1], block: [32, 1, 1], args }),
      () => session.run({ module: build.cubin, kernel: symbol, grid: [1, 1, 1], block: [32, 1, 1], args }),
    ]) {
      const r = await run();
      expect([...(r.outputs.get(6) as Int8Array)]).toEqual(want.o8);
      expect([...(r.outputs.get(7) as Uint16Array)]).toEqual(want.o16);
      expect([...f16ToFloat32(r.outputs.get(8) as Uint16Array)]).toEqual(want.oh);
      expect([...(r.outputs.get(9) as Uint16Array)]).toEqual(want.ob);
    }
  });
});
