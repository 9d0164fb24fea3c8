import { describe, expect, it } from "vitest";
import { compile, compileSource, GkCompileError, GkRuntimeError } from "../../src/index.js";
import { TAKEN_KERNEL_NAMES } from "../../src/check/kernelNames.js";

describe("compile and run from TypeScript (CPU simulator)", () => {
  it("runs saxpy with typed arrays in and out, updating the output in place", async () => {
    const mod = await compile("examples/saxpy.gk", { device: "cpu" });
    expect(mod.device).toBe("cpu");
    expect(mod.kernels).toEqual(["saxpy"]);
    const x = Float32Array.from([1, 2, 3, 4]);
    const y = Float32Array.from([1, 1, 1, 1]);
    const out = new Float32Array(4);
    const r = await mod.saxpy({ grid: 1, block: 256 }, { n: 4, alpha: 2.5, x, y, out });
    expect([...out]).toEqual([3.5, 6, 8.5, 11]);
    expect(r.out).toBe(out);
    await mod.close();
  });

  it("accepts plain arrays for inputs and returns the outputs", async () => {
    const mod = await compileSource(
      "device_kernel add(a: readonly global<i32>, b: readonly global<i32>, c: global<i64>) { const i = globalId.x; c[i] = i64(a[i] + b[i]); }",
      { device: "cpu" },
    );
    const r = await mod.launch("add", { grid: [1], block: [3] }, { a: [1, 2, 3], b: [10, 20, 30], c: [0n, 0n, 0n] });
    expect([...(r.c as BigInt64Array)]).toEqual([11n, 22n, 33n]);
  });

  it("names source text or a path that is no string (GK8005)", async () => {
    expect(((await compileSource(42 as never, { device: "cpu" }).catch((e: unknown) => e)) as GkRuntimeError).message).toBe("GK8005: compileSource() takes the source text as a string, got number 42");
    expect(((await compile(undefined as never, { device: "cpu" }).catch((e: unknown) => e)) as GkRuntimeError).message).toBe("GK8005: compile() takes the path of a .gk or .ts file as a string, got undefined");
  });

  it("runs the file's launch statements", async () => {
    const mod = await compile("examples/reduce.gk", { device: "cpu" });
    const [first] = await mod.runLaunches();
    expect([...first!.outputs.get("total")!.data]).toEqual([499500]);
  });

  it("throws GkCompileError with every diagnostic, its message showing the first 100", async () => {
    const err = (await compileSource("`\n".repeat(100_000), { device: "cpu" }).catch((e: unknown) => e)) as GkCompileError;
    expect(err.diagnostics).toHaveLength(100_000);
    expect(err.message.match(/error GK1001/g)).toHaveLength(100);
    expect(err.message).toContain("and 99900 more");
    expect(err.message.length).toBeLessThan(50_000);
  });

  it("throws GkCompileError with every diagnostic", async () => {
    const err = await compileSource("device_kernel k(out: global<f32>) { out[0] = zz + yy; }", { device: "cpu" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GkCompileError);
    expect((err as GkCompileError).diagnostics.map((d) => d.code)).toEqual(["GK2001", "GK2001"]);
    expect((err as GkCompileError).message).toMatch(/unknown name 'zz'/);
  });
});

describe("generic kernels from TypeScript (CPU simulator)", () => {
  it("run as instances named with with(), made by the launch statements or on demand", async () => {
    const mod = await compile("examples/reduce_generic.gk", { device: "cpu" });
    expect(mod.kernels).toEqual(["block_sum<f32, 256>", "block_sum<i32, 128>", "block_sum<f64, 512>"]);
    const x = Int32Array.from({ length: 300 }, (_, i) => (i % 7) - 3 + i);
    const sum = x.reduce((a, b) => a + b, 0);
    // An instance no launch statement made: checked and built in a module of its own.
    const i32x64 = mod.block_sum.with({ T: "i32", BLOCK: 64 });
    const r = await i32x64({ grid: 5, block: 64 }, { n: 300, x, partial: new Int32Array(5), total: new Int32Array(1) });
    expect([...r.total!]).toEqual([sum]);
    // Named again, it is the same instance; named by its name, too.
    const again = await mod.launch("block_sum<i32, 64>", { grid: 5, block: 64 }, { n: 300, x, partial: new Int32Array(5), total: new Int32Array(1) });
    expect([...again.total!]).toEqual([sum]);
    // One the launch statements made.
    const f64 = await mod.block_sum.with({ BLOCK: 512, T: "f64" })({ grid: 1, block: 512 }, { n: 300, x: Float64Array.from(x), partial: new Float64Array(1), total: new Float64Array(1) });
    expect([...f64.total!]).toEqual([sum]);
    await mod.close();
  });

  it("say what is wrong with the generic arguments, or that a generic kernel needs them", async () => {
    const mod = await compile("examples/reduce_generic.gk", { device: "cpu" });
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message.split("\n")[0]}`;
      }
      return "no error";
    };
    expect(msg(() => mod.block_sum.with({ T: "u32", BLOCK: 64 }))).toBe('GkRuntimeError: GK8005: block_sum: T is one of "f32", "i32", "f64", not "u32"');
    expect(msg(() => mod.block_sum.with({ T: "f32" }))).toBe("GkRuntimeError: GK8005: 'block_sum' takes <T: f32 | i32 | f64, BLOCK: i32>: 'BLOCK' missing, as in block_sum.with({ T: \"f32\", BLOCK: 256 })");
    expect(msg(() => mod.block_sum.with({ T: "f32", BLOCK: 64, W: 1 }))).toBe("GkRuntimeError: GK8005: 'block_sum' has no generic parameter 'W' (it takes <T: f32 | i32 | f64, BLOCK: i32>)");
    expect(msg(() => mod.block_sum.with({ T: "f32", BLOCK: 2.5 }))).toBe("GkRuntimeError: GK8005: block_sum: BLOCK takes an integer of i32, not 2.5");
    // What only the instance's check finds is a compile error, naming the instance.
    expect(msg(() => mod.block_sum.with({ T: "f64", BLOCK: 100_000 }))).toMatch(/^GkCompileError: .*error GK4008: in block_sum<f64, 100000>: /);
    expect(msg(() => mod.block_sum.with({ T: "f32", BLOCK: 64 }).with({}))).toBe("GkRuntimeError: GK8005: 'block_sum<f32, 64>' is already an instance of 'block_sum'");
    await expect(mod.block_sum({ grid: 1, block: 1 }, {})).rejects.toThrow("'block_sum' is generic (block_sum<T: f32 | i32 | f64, BLOCK: i32>): run one of its instances, as in mod.block_sum.with({ T: \"f32\", BLOCK: 256 })(config, args)");
    await expect(mod.launch("block_sum", { grid: 1, block: 1 }, {})).rejects.toThrow("'block_sum' is generic");
    await expect(mod.launch("block_sum<f32>", { grid: 1, block: 1 }, {})).rejects.toThrow("'block_sum' takes 2 generic arguments <T: f32 | i32 | f64, BLOCK: i32>, but 'block_sum<f32>' gives 1");
    await expect(mod.launch("nope<f32>", { grid: 1, block: 1 }, {})).rejects.toThrow("there is no generic kernel 'nope'");
    const plain = await compile("examples/saxpy.gk", { device: "cpu" });
    expect(plain.saxpy.with({})).toBe(plain.saxpy);
    expect(msg(() => plain.saxpy.with({ T: "f32" }))).toBe("GkRuntimeError: GK8005: 'saxpy' is not generic: run it without with(...)");
    await mod.close();
    await plain.close();
  });
});

describe("kernel names", () => {
  it("are refused when a module object has them: the checker's table holds every member, own or inherited", async () => {
    const mod = await compileSource("device_kernel k(out: global<i32>) { out[0] = 1; }", { device: "cpu" });
    const names = new Set<string>();
    for (let o: object | null = mod; o; o = Object.getPrototypeOf(o) as object | null) for (const n of Object.getOwnPropertyNames(o)) names.add(n);
    names.delete("k");
    expect([...names].filter((n) => !TAKEN_KERNEL_NAMES.has(n))).toEqual([]);
    await mod.close();
  });

  it("refuses a kernel named then or close: compileSource settles, with GkCompileError (GK2010)", async () => {
    for (const name of ["then", "close", "constructor"]) {
      const settled = compileSource(`device_kernel ${name}(out: global<i32>) { out[0] = 1; }`, { device: "cpu" }).then(
        (m) => ({ m }),
        (e: unknown) => ({ e }),
      );
      const timeout = new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), 5000));
      const r = await Promise.race([settled, timeout]);
      expect(r, `compileSource with a kernel named '${name}' never settled`).not.toBe("pending");
      if (r !== "pending" && "m" in r) await (r.m as { close?: () => Promise<void> }).close?.();
      expect(r !== "pending" && "e" in r && r.e instanceof GkCompileError && r.e.diagnostics.map((d) => d.code)).toEqual(["GK2010"]);
    }
  });
});

describe("arguments are checked before anything runs", () => {
  const src = "device_kernel k(n: i32, big: u64, scale: f32, x: readonly global<f32>, out: global<f32>) { out[0] = scale; }";
  const good = () => ({ n: 1, big: 5n, scale: 1.5, x: new Float32Array(1), out: new Float32Array(1) });
  const failure = async (args: Record<string, unknown>, config = { grid: 1, block: 1 }) => {
    const mod = await compileSource(src, { device: "cpu" });
    const e = await mod.launch("k", config as never, args as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GkRuntimeError);
    return (e as GkRuntimeError).diagnostic;
  };

  it("names an unknown or missing parameter", async () => {
    expect((await failure({ ...good(), outt: new Float32Array(1) })).message).toBe("k: there is no parameter 'outt'; did you mean 'out'? (parameters: n, big, scale, x, out)");
    const { out: _, ...missing } = good();
    expect((await failure(missing)).message).toBe("k: missing argument 'out' (global<f32>)");
  });

  it("looks parameters up among the arguments' own properties: a missing 'toString' is missing", async () => {
    const mod = await compileSource("device_kernel k(toString: i32, out: global<i32>) { out[0] = toString; }", { device: "cpu" });
    const e = (await mod.launch("k", { grid: 1, block: 1 }, { out: new Int32Array(1) }).catch((x: unknown) => x)) as GkRuntimeError;
    expect(e.diagnostic.message).toBe("k: missing argument 'toString' (i32)");
    await mod.close();
  });

  it("names a hole in a plain array, of a parameter or of a constant array", async () => {
    const mod = await compileSource("constant T: f32[3];\ndevice_kernel k(x: readonly global<f32>, out: global<f32>) { out[0] = x[1] + T[1]; }", { device: "cpu" });
    const wrong = async (args: Record<string, unknown>) => ((await mod.launch("k", { grid: 1, block: 1 }, args as never).catch((x: unknown) => x)) as GkRuntimeError).diagnostic.message;
    // eslint-disable-next-line no-sparse-arrays
    expect(await wrong({ x: [1, , 3], out: new Float32Array(1), T: [1, 2, 3] })).toBe("k: parameter 'x' (readonly global<f32>) has a hole at index 1: give every element of a plain array");
    // eslint-disable-next-line no-sparse-arrays
    expect(await wrong({ x: [1, 2, 3], out: new Float32Array(1), T: [1, , 3] })).toBe("k: the constant array 'T' has a hole at index 1: give every element of a plain array");
    await mod.close();
  });

  it("names a parameter given the wrong kind of value", async () => {
    expect((await failure({ ...good(), x: new Float64Array(1) })).message).toBe("k: parameter 'x' (readonly global<f32>) takes a Float32Array, got a Float64Array");
    expect((await failure({ ...good(), n: 2.5 })).message).toBe("k: parameter 'n' (i32) takes an integer, got number 2.5");
    expect((await failure({ ...good(), n: 2 ** 31 })).message).toBe("k: parameter 'n' (i32) takes values from -2147483648 to 2147483647, got 2147483648");
    expect((await failure({ ...good(), scale: "1" })).message).toBe("k: parameter 'scale' (f32) takes a number, got string 1");
    expect((await failure({ ...good(), big: -1n })).code).toBe("GK8005");
    // A bigint is the host form of i64 and u64 only, as gk's TypeScript declarations say.
    expect((await failure({ ...good(), n: 3n })).message).toBe("k: parameter 'n' (i32) takes a number, got bigint 3n (bigints are for i64 and u64)");
  });

  it("takes each element type's TypedArray: a Uint8Array for bool and u8, a Uint16Array of bits for f16, bf16 and u16", async () => {
    const mod = await compileSource(
      "device_kernel k(flags: global<bool>, bytes: global<u8>, s: global<i8>, h: global<f16>, w: global<u16>, c: u8) { flags[0] = bytes[0] > c; bytes[0] = c; s[0] = i8(h[0]); h[0] = f16(w[0]); }",
      { device: "cpu" },
    );
    const args = () => ({ flags: new Uint8Array(1), bytes: Uint8Array.from([200]), s: new Int8Array(1), h: Uint16Array.from([0x4900]), w: Uint16Array.from([2049]), c: 7 });
    const r = await mod.launch("k", { grid: 1, block: 1 }, args());
    expect([...(r.flags as Uint8Array)]).toEqual([1]);
    expect([...(r.bytes as Uint8Array)]).toEqual([7]);
    expect([...(r.s as Int8Array)]).toEqual([10]);
    expect([...(r.h as Uint16Array)]).toEqual([0x6800]); // 2049 rounds to 2048
    const wrong = async (patch: Record<string, unknown>) => ((await mod.launch("k", { grid: 1, block: 1 }, { ...args(), ...patch } as never).catch((x: unknown) => x)) as GkRuntimeError).diagnostic.message;
    expect(await wrong({ bytes: new Int8Array(1) })).toBe("k: parameter 'bytes' (global<u8>) takes a Uint8Array, got a Int8Array");
    expect(await wrong({ s: new Uint8Array(1) })).toBe("k: parameter 's' (global<i8>) takes a Int8Array, got a Uint8Array");
    expect(await wrong({ flags: new Uint16Array(1) })).toBe("k: parameter 'flags' (global<bool>) takes a Uint8Array, got a Uint16Array");
    expect(await wrong({ h: new Float32Array(1) })).toBe("k: parameter 'h' (global<f16>) takes a Uint16Array of f16 bits, got a Float32Array");
    expect(await wrong({ c: 256 })).toBe("k: parameter 'c' (u8) takes values from 0 to 255, got 256");
    await mod.close();
  });

  it("refuses an output array that is also passed to another parameter", async () => {
    const a = new Float32Array(1);
    expect((await failure({ ...good(), x: a, out: a })).message).toBe("k: arguments 'out' (written by the kernel) and 'x' share memory (they are the same array); an array a kernel writes may share memory with no other argument of its launch: pass a copy (e.g. x.slice())");
  });

  it("checks grid and block sizes", async () => {
    expect((await failure(good(), { grid: 1, block: [64, 32] } as never)).message).toBe("k: a block has at most 1024 threads, but block [64, 32, 1] has 2048");
    expect((await failure(good(), { grid: 0, block: 1 } as never)).message).toBe("k: grid size x must be an integer from 1 to 2147483647, got 0");
  });

  it("names a kernel that does not exist", async () => {
    const mod = await compileSource(src, { device: "cpu" });
    const e = (await mod.launch("kk", { grid: 1, block: 1 }, good()).catch((x: unknown) => x)) as GkRuntimeError;
    expect(e.diagnostic.message).toBe("there is no kernel 'kk'; did you mean 'k'? (kernels: k)");
  });
});
