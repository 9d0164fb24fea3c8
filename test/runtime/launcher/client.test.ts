// The TypeScript client without a GPU: marshalling every type through --check, the binary's
// location, device listing, and the mapping of every failure to a GkRuntimeError.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { bf16Bits, f16Bits } from "../../../src/ir/halves.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GkRuntimeError, launchOnce, launcherPath, listDevices, packageRoot, type KernelArg } from "../../../src/runtime/launcher.js";
import { dummyModule, ensureLauncher, failure, LAUNCHER, NO_DRIVER_ENV, removeTempDirs, ROOT, tempDir } from "./helpers.js";

let dir: string;
let mod: string;
const grid = [1, 1, 1] as const;
const block = [32, 1, 1] as const;

beforeAll(async () => {
  await ensureLauncher();
  dir = tempDir("client");
  mod = dummyModule(dir);
});
afterAll(removeTempDirs);

const check = (args: KernelArg[]) => launchOnce({ module: mod, kernel: "k", grid, block, args, check: true });

const bits = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

describe("locating the launcher", () => {
  it("finds the package root from src/ and defaults to build/gpu_launcher", () => {
    expect(packageRoot()).toBe(ROOT);
    expect(launcherPath({})).toBe(process.env.GK_LAUNCHER ?? LAUNCHER);
    expect(launcherPath({ launcherPath: "/x/y" })).toBe("/x/y");
  });
});

describe("marshalling through --check", () => {
  it("returns every element type as its TypedArray, bit for bit", async () => {
    const f32 = new Float32Array([NaN, -0, Infinity, 1.5]);
    new Uint32Array(f32.buffer)[0] = 0xffc00123;
    const inputs = [
      new Uint8Array([1, 0, 1]),
      new Int32Array([-5, 2147483647]),
      new Uint32Array([4294967295]),
      new BigInt64Array([-(2n ** 63n)]),
      new BigUint64Array([2n ** 64n - 1n]),
      f32,
      new Float64Array([NaN, -0, -Infinity, 5e-324]),
    ];
    const elems = ["bool", "i32", "u32", "i64", "u64", "f32", "f64"] as const;
    const r = await check(inputs.map((data, i) => ({ kind: "array", elem: elems[i]!, data, copyBack: true })));
    expect(r.check).toBe(true);
    inputs.forEach((data, i) => {
      const out = r.outputs.get(i)!;
      expect(out.constructor).toBe(data.constructor);
      expect(bits(out)).toBe(bits(data));
    });
  });

  it("round-trips random arrays of every type exactly (property)", async () => {
    const typed = fc.oneof(
      fc.uint8Array({ max: 1, maxLength: 64 }).map((d) => ({ elem: "bool" as const, data: d })),
      fc.int32Array({ maxLength: 64 }).map((d) => ({ elem: "i32" as const, data: d })),
      fc.uint32Array({ maxLength: 64 }).map((d) => ({ elem: "u32" as const, data: d })),
      fc.bigInt64Array({ maxLength: 64 }).map((d) => ({ elem: "i64" as const, data: d })),
      fc.bigUint64Array({ maxLength: 64 }).map((d) => ({ elem: "u64" as const, data: d })),
      fc.uint32Array({ maxLength: 64 }).map((d) => ({ elem: "f32" as const, data: new Float32Array(d.buffer) })),
      fc.bigUint64Array({ maxLength: 64 }).map((d) => ({ elem: "f64" as const, data: new Float64Array(d.buffer) })),
      fc.int8Array({ maxLength: 64 }).map((d) => ({ elem: "i8" as const, data: d })),
      fc.uint8Array({ maxLength: 64 }).map((d) => ({ elem: "u8" as const, data: d })),
      fc.int16Array({ maxLength: 64 }).map((d) => ({ elem: "i16" as const, data: d })),
      fc.uint16Array({ maxLength: 64 }).map((d) => ({ elem: "u16" as const, data: d })),
      fc.uint16Array({ maxLength: 64 }).map((d) => ({ elem: "f16" as const, data: d })),
      fc.uint16Array({ maxLength: 64 }).map((d) => ({ elem: "bf16" as const, data: d })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(typed, { maxLength: 6 }), async (arrays) => {
        const r = await check(arrays.map((a) => ({ kind: "array", elem: a.elem, data: a.data, copyBack: true })));
        arrays.forEach((a, i) => expect(bits(r.outputs.get(i)!)).toBe(bits(a.data)));
      }),
      { numRuns: 40 },
    );
  });

  it("encodes scalars of every type exactly", async () => {
    const cases: [KernelArg & { kind: "scalar" }, bigint][] = [
      [{ kind: "scalar", type: "bool", value: true }, 1n],
      [{ kind: "scalar", type: "i32", value: -1 }, 0xffffffffn],
      [{ kind: "scalar", type: "i32", value: -2147483648n }, 0x80000000n],
      [{ kind: "scalar", type: "u32", value: 4294967295 }, 0xffffffffn],
      [{ kind: "scalar", type: "i64", value: -(2n ** 63n) }, 2n ** 63n],
      [{ kind: "scalar", type: "i64", value: -1 }, 2n ** 64n - 1n],
      [{ kind: "scalar", type: "u64", value: 2n ** 64n - 1n }, 2n ** 64n - 1n],
      [{ kind: "scalar", type: "f32", value: NaN }, 0x7fc00000n],
      [{ kind: "scalar", type: "f32", value: -0 }, 0x80000000n],
      [{ kind: "scalar", type: "f32", value: Math.fround(0.1) }, 0x3dcccccdn],
      [{ kind: "scalar", type: "f32", value: -Infinity }, 0xff800000n],
      [{ kind: "scalar", type: "f64", value: 0.1 }, 0x3fb999999999999an],
      [{ kind: "scalar", type: "f64", value: -0 }, 0x8000000000000000n],
      [{ kind: "scalar", type: "f64", value: Number.MAX_VALUE }, 0x7fefffffffffffffn],
      [{ kind: "scalar", type: "i8", value: -128 }, 0x80n],
      [{ kind: "scalar", type: "i8", value: -1 }, 0xffn],
      [{ kind: "scalar", type: "u8", value: 255 }, 0xffn],
      [{ kind: "scalar", type: "i16", value: -32768 }, 0x8000n],
      [{ kind: "scalar", type: "u16", value: 65535 }, 0xffffn],
      [{ kind: "scalar", type: "f16", value: 1 }, 0x3c00n],
      [{ kind: "scalar", type: "f16", value: -0 }, 0x8000n],
      [{ kind: "scalar", type: "f16", value: 65504 }, 0x7bffn],
      [{ kind: "scalar", type: "f16", value: 65520 }, 0x7c00n],
      [{ kind: "scalar", type: "f16", value: 2 ** -24 }, 0x0001n],
      [{ kind: "scalar", type: "f16", value: 2 ** -25 }, 0x0000n],
      [{ kind: "scalar", type: "f16", value: NaN }, 0x7e00n],
      [{ kind: "scalar", type: "f16", value: -Infinity }, 0xfc00n],
      [{ kind: "scalar", type: "bf16", value: 1 }, 0x3f80n],
      [{ kind: "scalar", type: "bf16", value: 1 + 2 ** -8 }, 0x3f80n],
      [{ kind: "scalar", type: "bf16", value: 1 + 3 * 2 ** -8 }, 0x3f82n],
      [{ kind: "scalar", type: "bf16", value: 2 ** -133 }, 0x0001n],
      [{ kind: "scalar", type: "bf16", value: 3.4e38 }, 0x7f80n],
      [{ kind: "scalar", type: "bf16", value: NaN }, 0x7fc0n],
    ];
    const r = await check(cases.map((c) => c[0]));
    expect([...r.scalarBits!.values()]).toEqual(cases.map((c) => c[1]));
  });

  it("encodes random doubles and their f32 roundings exactly (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double(), { minLength: 1, maxLength: 20 }), async (xs) => {
        const args: KernelArg[] = xs.flatMap((x) => [
          { kind: "scalar", type: "f64", value: x },
          { kind: "scalar", type: "f32", value: x },
        ]);
        const r = await check(args);
        xs.forEach((x, i) => {
          const f64 = new BigUint64Array(new Float64Array([x]).buffer)[0]!;
          const f32 = BigInt(new Uint32Array(new Float32Array([x]).buffer)[0]!);
          expect(r.scalarBits!.get(2 * i)).toBe(Number.isNaN(x) ? 0x7ff8000000000000n : f64);
          expect(r.scalarBits!.get(2 * i + 1)).toBe(Number.isNaN(x) ? 0x7fc00000n : f32);
        });
      }),
      { numRuns: 30 },
    );
  });

  it("rounds random doubles to f16 and bf16 as src/ir/halves.ts does (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.double(), fc.double({ min: -70000, max: 70000 }), fc.double({ min: -1e-4, max: 1e-4 })), { minLength: 1, maxLength: 20 }), async (xs) => {
        const args: KernelArg[] = xs.flatMap((x) => [
          { kind: "scalar", type: "f16", value: x },
          { kind: "scalar", type: "bf16", value: x },
        ]);
        const r = await check(args);
        xs.forEach((x, i) => {
          expect(r.scalarBits!.get(2 * i)).toBe(BigInt(f16Bits(x)));
          expect(r.scalarBits!.get(2 * i + 1)).toBe(BigInt(bf16Bits(x)));
        });
      }),
      { numRuns: 30 },
    );
  });

  it("streams a 64 MiB array in and out without one giant string", async () => {
    const data = new Float32Array(1 << 24);
    for (let i = 0; i < data.length; i++) data[i] = i * 0.5;
    const r = await check([{ kind: "array", elem: "f32", data, copyBack: true }]);
    const out = r.outputs.get(0) as Float32Array;
    expect(out.length).toBe(data.length);
    expect(Buffer.compare(Buffer.from(out.buffer), Buffer.from(data.buffer))).toBe(0);
  });

  it("sends zero-filled arrays by length and leaves copyBack:false arrays out", async () => {
    const r = await check([
      { kind: "array", elem: "i64", length: 3, copyBack: true },
      { kind: "array", elem: "f32", data: new Float32Array([1]), copyBack: false },
    ]);
    expect([...r.outputs.keys()]).toEqual([0]);
    expect(r.outputs.get(0)).toEqual(new BigInt64Array(3));
  });
});

describe("errors", () => {
  it("maps a missing driver to GK8007 with the launcher's structured error", async () => {
    const e = await failure(launchOnce({ module: mod, kernel: "k", grid, block, args: [], env: NO_DRIVER_ENV }));
    expect(e.code).toBe("GK8007");
    expect(e.launcher).toMatchObject({ code: "NO_CUDA_DRIVER", phase: "init" });
    expect(e.diagnostic).toMatchObject({ code: "GK8007", severity: "error", message: expect.stringContaining("no CUDA driver found") });
  });

  it("maps request errors to GK8005, launch configuration to GK8010 and module files to GK8011", async () => {
    const bad = await failure(check([{ kind: "scalar", type: "i32", value: 1.5 }]));
    expect(bad).toMatchObject({ code: "GK8005", phase: "request" });
    expect(bad.launcher?.path).toBe("args[0].value");
    const cfg = await failure(launchOnce({ module: mod, kernel: "k", grid, block: [2048, 1, 1], args: [], check: true }));
    expect(cfg.code).toBe("GK8010");
    expect(cfg.message).toContain("block x must be an integer from 1 to 1024");
    const nomod = await failure(launchOnce({ module: join(dir, "missing.cubin"), kernel: "k", grid, block, args: [], check: true }));
    expect(nomod.code).toBe("GK8011");
  });

  it("rejects a TypedArray of the wrong class before starting the launcher", async () => {
    const e = await failure(check([{ kind: "array", elem: "f32", data: new Float64Array(2), copyBack: true }]));
    expect(e.code).toBe("GK8005");
    expect(e.message).toContain("must be a Float32Array");
    const b = await failure(check([{ kind: "scalar", type: "i32", value: true }]));
    expect(b.code).toBe("GK8005");
  });

  it("reports a launcher that is not built (GK8007) and one that crashes or babbles (GK8008)", async () => {
    const missing = await failure(launchOnce({ module: mod, kernel: "k", grid, block, args: [], launcherPath: join(dir, "nope") }));
    expect(missing.code).toBe("GK8007");
    expect(missing.message).toContain("npm run build:launcher");

    const crash = join(dir, "crash.sh");
    writeFileSync(crash, "#!/bin/sh\necho dying >&2\nkill -SEGV $$\n");
    chmodSync(crash, 0o755);
    const crashed = await failure(launchOnce({ module: mod, kernel: "k", grid, block, args: [], launcherPath: crash }));
    expect(crashed.code).toBe("GK8008");
    expect(crashed.message).toMatch(/killed by SIGSEGV; stderr: dying/);

    const babble = join(dir, "babble.sh");
    writeFileSync(babble, "#!/bin/sh\necho hello\n");
    chmodSync(babble, 0o755);
    const babbled = await failure(launchOnce({ module: mod, kernel: "k", grid, block, args: [], launcherPath: babble }));
    expect(babbled.code).toBe("GK8008");
    expect(babbled.message).toContain("not JSON");
  });

  it("lists devices, or says why there are none", async () => {
    expect(await listDevices({ env: NO_DRIVER_ENV })).toMatchObject({ ok: false, reason: "no-driver" });
    expect(await listDevices({ launcherPath: join(dir, "nope") })).toMatchObject({ ok: false, reason: "no-launcher" });
    const here = await listDevices();
    expect(await listDevices()).toBe(here); // memoized
    if (!here.ok) expect(["no-driver", "no-devices", "no-launcher"]).toContain(here.reason);
  });
});
