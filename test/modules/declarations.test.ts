/**
 * What an imported .gk file looks like to TypeScript and to JavaScript: its declaration
 * (x.d.gk.ts) and its module code, for the examples (file snapshots) and for the corners:
 * every parameter type, constants of every kind, names that are JavaScript reserved words,
 * a constant named `default`, the small integers and halves (i8 u8 i16 u16 f16 bf16) and
 * generic kernels over them, vectors and structs. The declaration is checked by TypeScript itself against calls
 * that must pass and calls that must fail.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memoryHost } from "../../src/load/program.js";
import { moduleCode } from "../../src/modules/code.js";
import { declarationText } from "../../src/modules/declarations.js";
import { frontEnd } from "../../src/pipeline.js";

const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

function checked(file: string, text?: string) {
  const r = frontEnd(file, text === undefined ? {} : { host: memoryHost({ [file]: text }) });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r;
}

/** `text` as the file `name` in a temporary folder removed after the describe block: the folder, the file, and its front end's result. */
function inTempDir(prefix: string, name: string, text: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  return { dir, file, r: frontEnd(file, { host: memoryHost({ [file]: text }) }) };
}

describe("the declarations of the examples", () => {
  for (const f of readdirSync("examples").filter((x) => x.endsWith(".gk"))) {
    it(f, async () => {
      const r = checked(`examples/${f}`);
      await expect(declarationText(`examples/${f}`, r.ir!, r.sources)).toMatchFileSnapshot(`declarations/${f.replace(/\.gk$/, ".d.gk.ts")}`);
    });
  }
});

const CORNERS = `const N = 16;
const BIG = 1 << 60;
const HALF = 0.5;
const S: f32 = 0.25;
const L: i64 = -3;
const B: bool = true;
const INF: f32 = Infinity;
const TAPS: f32[3] = [0.25, 0.5, 0.25];
const FLAGS: bool[2] = [true, false];
const default = 1;
device_fn helper(v: f32): f32 { return v; }
device_kernel every(b: bool, i: i32, u: u32, l: i64, ul: u64, f: f32, d: f64,
                    ro: readonly global<f64>, w: global<i32>, wb: global<bool>, wl: global<u64>) {
  w[0] = i;
}
device_kernel function(out: global<f32>) {
  out[0] = helper(S);
}
constant WEIGHTS: f32[3];
device_fn weight(i: i32): f32 { return WEIGHTS[i % 3]; }
device_kernel dyn(out: global<f32>) {
  shared buf: f32[];
  shared idx: i32[];
  idx[threadIdx.x] = threadIdx.x;
  buf[threadIdx.x] = weight(idx[threadIdx.x]);
  barrier();
  out[0] = buf[0];
}
`;

describe("every parameter type, constant kind and awkward name", () => {
  const { dir, file, r } = inTempDir("gk-decl-", "corners.gk", CORNERS);

  it("checks (constants and device functions may be named by reserved words; kernels that JavaScript reads may not)", () => {
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("has this declaration", async () => {
    await expect(declarationText(file, r.ir!, r.sources).replace(dir, "DIR")).toMatchFileSnapshot("declarations/corners.d.gk.ts");
  });

  it("and this module code, whose exports are the declaration's", async () => {
    const code = moduleCode(file, r.ir!, r.sources, "gk/modules");
    expect(code).toContain('export { k0 as every, k1 as function, k2 as dyn, c0 as N, c1 as BIG, c2 as HALF, c3 as S, c4 as L, c5 as B, c6 as INF, c7 as TAPS, c8 as FLAGS };');
    expect(code).toContain("const c1 = 1152921504606846976n;");
    expect(code).toContain("const c4 = -3n;");
    expect(code).toContain("const c6 = Infinity;");
    expect(code).toContain("const c7 = new Float32Array([0.25, 0.5, 0.25]);");
    expect(code).toContain("const c8 = new Uint8Array([1, 0]);");
    expect(code).not.toContain("helper =");
  });

  it("TypeScript accepts right calls and refuses wrong ones, at their lines", () => {
    writeFileSync(join(dir, "corners.d.gk.ts"), declarationText(file, r.ir!, r.sources));
    const use = [
      'import mod, { every, function as del, dyn, N, BIG, TAPS, L } from "./corners.gk";\nimport type { ReadonlyView } from "gk";',
      "const n: 16 = N; const big: bigint = BIG; const t: number = TAPS[0]!; const l: -3n = L;",
      "const ro = new Float64Array(1) as Readonly<Float64Array>;",
      "await every({ grid: 1, block: 1 }, { b: true, i: 1, u: 2, l: 3n, ul: 4n, f: 0.5, d: 1, ro, w: new Int32Array(1), wb: new Uint8Array(1), wl: new BigUint64Array(1) });",
      "const { w, wb, wl } = await every({ grid: 1, block: 1 }, { b: true, i: 1, u: 2, l: 3n, ul: 4n, f: 0.5, d: 1, ro: new Float64Array(1), w: new Int32Array(1), wb: new Uint8Array(1), wl: new BigUint64Array(1) });",
      "const out: Float32Array = (await del({ grid: 1, block: 1 }, { out: new Float32Array(1) })).out;",
      "void [n, big, t, l, w, wb, wl, out, mod.kernels, mod.every];",
      // Wrong: a number for an i64 (line 9), a missing argument (line 10), an unknown one (line 11), a wrong element type (line 12), a readonly view for a written array (line 13), device functions are not exported (line 14).
      "await every({ grid: 1, block: 1 }, { b: true, i: 1, u: 2, l: 3, ul: 4n, f: 0.5, d: 1, ro, w: new Int32Array(1), wb: new Uint8Array(1), wl: new BigUint64Array(1) });",
      "await del({ grid: 1, block: 1 }, {});",
      "await del({ grid: 1, block: 1 }, { out: new Float32Array(1), extra: 1 });",
      "await del({ grid: 1, block: 1 }, { out: new Float64Array(1) });",
      "await every({ grid: 1, block: 1 }, { b: true, i: 1, u: 2, l: 3n, ul: 4n, f: 0.5, d: 1, ro, w: new Int32Array(1) as ReadonlyView<Int32Array>, wb: new Uint8Array(1), wl: new BigUint64Array(1) });",
      'import { helper } from "./corners.gk";',
      // Launch extras: a constant array read through a device function is an argument by name (its TypedArray or plain values), dynamic shared lengths are required by name (lines 15, 16).
      "const o1: Float32Array = (await dyn({ grid: 1, block: 64, shared: { buf: 64, idx: 64 } }, { out: new Float32Array(1), WEIGHTS: new Float32Array(3) })).out;",
      "void o1; await dyn({ grid: 1, block: 64, shared: { buf: 64, idx: 64 } }, { out: new Float32Array(1), WEIGHTS: [0.25, 0.5, 0.25] });",
      // Wrong: a length missing (17), an unknown length (18), the constant missing (19), the constant of another element type (20), lengths for a kernel with no dynamic shared array (21).
      "await dyn({ grid: 1, block: 64, shared: { buf: 64 } }, { out: new Float32Array(1), WEIGHTS: new Float32Array(3) });",
      "await dyn({ grid: 1, block: 64, shared: { buf: 64, idx: 64, other: 1 } }, { out: new Float32Array(1), WEIGHTS: new Float32Array(3) });",
      "await dyn({ grid: 1, block: 64, shared: { buf: 64, idx: 64 } }, { out: new Float32Array(1) });",
      "await dyn({ grid: 1, block: 64, shared: { buf: 64, idx: 64 } }, { out: new Float32Array(1), WEIGHTS: new Float64Array(3) });",
      "await del({ grid: 1, block: 1, shared: { buf: 64 } }, { out: new Float32Array(1) });",
      "export {};",
    ].join("\n");
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
    writeFileSync(join(dir, "use.mts"), use);
    const program = ts.createProgram([join(dir, "use.mts")], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowArbitraryExtensions: true, skipLibCheck: true, types: [], noUncheckedIndexedAccess: true,
      paths: { gk: [join(process.cwd(), "dist/index.d.ts")] }, baseUrl: dir,
    });
    const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName.endsWith("use.mts"));
    const at = errors.map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} TS${d.code}`);
    expect(at).toEqual(["9 TS2322", "10 TS2345", "11 TS2353", "12 TS2322", "13 TS2322", "14 TS2614", "17 TS2741", "18 TS2353", "19 TS2345", "20 TS2322", "21 TS2322"]);
  });

  it("the fallback of spec/typescript.md, `declare module \"*.gk\"`, types the default export", () => {
    const spec = readFileSync("spec/typescript.md", "utf8");
    const fallback = /```ts\n(\/\/ gk-modules\.d\.ts\n[\s\S]*?)```\n```ts\n([\s\S]*?)```/.exec(spec);
    expect(fallback).not.toBeNull();
    const sub = join(dir, "fallback");
    mkdirSync(sub);
    writeFileSync(join(sub, "package.json"), '{ "type": "module" }');
    writeFileSync(join(sub, "gk-modules.d.ts"), fallback![1]!);
    writeFileSync(join(sub, "use.mts"), `const n = 4, x = new Float32Array(4), y = x;\n${fallback![2]!}void out;\nexport {};\n`);
    const program = ts.createProgram([join(sub, "use.mts"), join(sub, "gk-modules.d.ts")], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true, types: [], noUncheckedIndexedAccess: true, paths: { gk: [join(process.cwd(), "dist/index.d.ts")] }, baseUrl: sub,
    });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  });
});

const NARROW = `const LEVELS: u8[3] = [0, 128, 255];
const WEIGHTS: f16[2] = [0.5, 0.25];
const BF: bf16[1] = [1.5];
const SCALE: f16 = 0.5;
const OFFSET: i16 = -300;
device_kernel narrow(a: i8, b: u8, c: i16, d: u16, h: f16, g: bf16, bytes: readonly global<u8>, halves: readonly global<f16>,
                     oi8: global<i8>, ou8: global<u8>, oi16: global<i16>, ou16: global<u16>, of16: global<f16>, obf16: global<bf16>) {
  oi8[0] = a;
  ou8[0] = b + bytes[0] + LEVELS[1];
  oi16[0] = c + OFFSET;
  ou16[0] = d;
  of16[0] = h * halves[0] * SCALE + WEIGHTS[1];
  obf16[0] = g + BF[0];
}
device_kernel scale<T: float, K: u8>(x: readonly global<T>, out: global<T>) {
  out[0] = x[0] * T(K);
}
device_kernel pick<T: i8 | u16 | bf16>(x: readonly global<T>, out: global<T>) {
  out[0] = x[0];
}
`;

describe("the small integers and halves, and generic kernels over them", () => {
  const { dir, file, r } = inTempDir("gk-decl-narrow-", "narrow.gk", NARROW);

  it("checks", () => {
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("has this declaration: numbers, their TypedArrays (f16 and bf16 a Uint16Array of bits), GPU arrays by element type", async () => {
    await expect(declarationText(file, r.ir!, r.sources).replace(dir, "DIR")).toMatchFileSnapshot("declarations/narrow.d.gk.ts");
  });

  it("and this module code: an f16 or bf16 table is the Uint16Array of its values' bits", () => {
    const code = moduleCode(file, r.ir!, r.sources, "gk/modules");
    expect(code).toContain("const c0 = new Uint8Array([0, 128, 255]);");
    expect(code).toContain("const c1 = new Uint16Array([14336, 13312]);"); // 0x3800, 0x3400
    expect(code).toContain("const c2 = new Uint16Array([16320]);"); // 0x3fc0
    expect(code).toContain("const c3 = 0.5;");
    expect(code).toContain("const c4 = -300;");
  });

  it("TypeScript accepts right calls and refuses wrong ones, at their lines", () => {
    writeFileSync(join(dir, "narrow.d.gk.ts"), declarationText(file, r.ir!, r.sources));
    const args = "a: -1, b: 200, c: -3, d: 4, h: 0.5, g: 1.5, bytes: new Uint8Array(1), halves: bits, oi8: new Int8Array(1), ou8: new Uint8Array(1), oi16: new Int16Array(1), ou16: new Uint16Array(1)";
    const use = [
      'import { narrow, scale, pick, LEVELS, WEIGHTS, SCALE, OFFSET } from "./narrow.gk";\nimport { float32ToF16, type GpuArray, type ReadonlyView } from "gk";',
      "const bits = float32ToF16([1]); declare const gh: GpuArray<\"f16\">, gu: GpuArray<\"u16\">, gb: GpuArray<\"bf16\">;",
      `const { oi8, of16, obf16 } = await narrow({ grid: 1, block: 1 }, { ${args}, of16: new Uint16Array(1), obf16: new Uint16Array(1) });`,
      `const g = await narrow({ grid: 1, block: 1 }, { ${args}, of16: gh, obf16: gb });`,
      "const i8s: Int8Array = oi8; const h16: Uint16Array = of16; const b16: Uint16Array = obf16; const gpu: GpuArray<\"f16\"> = g.of16;",
      "const levels: ReadonlyView<Uint8Array> = LEVELS; const w: ReadonlyView<Uint16Array> = WEIGHTS; const s: 0.5 = SCALE; const o: -300 = OFFSET;",
      'const k1 = scale.with({ T: "f16", K: 3 }); const k2 = scale.with({ T: "bf16", K: 255 }); const k3 = pick.with({ T: "u16" });',
      "void [i8s, h16, b16, gpu, levels, w, s, o, k1, k2, k3];",
      // Wrong: a Float32Array of values for an f16 array (line 10), a Uint8Array for an i8 array (line 11), a GPU array of u16 for one of f16 (line 12), a bigint for a u8 (line 13), a type outside the class (line 14), a bigint for a u8 constant parameter (line 15), u8 is not in pick's list (line 16).
      `await narrow({ grid: 1, block: 1 }, { ${args.replace("halves: bits", "halves: new Float32Array(1)")}, of16: gh, obf16: gb });`,
      `await narrow({ grid: 1, block: 1 }, { ${args.replace("oi8: new Int8Array(1)", "oi8: new Uint8Array(1)")}, of16: gh, obf16: gb });`,
      `await narrow({ grid: 1, block: 1 }, { ${args}, of16: gu, obf16: gb });`,
      `await narrow({ grid: 1, block: 1 }, { ${args.replace("b: 200", "b: 200n")}, of16: gh, obf16: gb });`,
      'scale.with({ T: "i32", K: 3 });',
      'scale.with({ T: "f16", K: 3n });',
      'pick.with({ T: "u8" });',
      "export {};",
    ].join("\n");
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
    writeFileSync(join(dir, "use.mts"), use);
    const program = ts.createProgram([join(dir, "use.mts")], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowArbitraryExtensions: true, skipLibCheck: true, types: [], noUncheckedIndexedAccess: true,
      paths: { gk: [join(process.cwd(), "dist/index.d.ts")] }, baseUrl: dir,
    });
    const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName.endsWith("use.mts"));
    const at = errors.map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} TS${d.code}`);
    expect(at, errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")).join("\n")).toEqual(["10 TS2322", "11 TS2322", "12 TS2322", "13 TS2322", "14 TS2322", "15 TS2322", "16 TS2322"]);
  });
});

const COMPOUND = `struct Inner {
  id: u32;
  big: i64;
}
struct Pair {
  at: f32x3;
  w: f32[2];
  inner: Inner;
}
device_kernel compound(v: f32x4, l: i64x2, b: boolx3, s: Pair,
                       vs: global<f32x3>, rv: readonly global<u64x2>, ps: global<Pair>, rps: readonly global<Pair>) {
  vs[0] = v.xyz + s.at;
  ps[0] = rps[0];
  ps[0].inner.big = l.x + i64(rv[0].y);
  if (any(b)) {
    ps[0].w[1] = s.w[0];
  }
}
`;

describe("vectors and structs as parameters", () => {
  const { dir, file, r } = inTempDir("gk-decl-compound-", "compound.gk", COMPOUND);

  it("checks", () => {
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("has this declaration: vectors as tuples of their lanes, structs as objects, arrays of them as TypedArrays of lanes, bytes or plain arrays", async () => {
    await expect(declarationText(file, r.ir!, r.sources).replace(dir, "DIR")).toMatchFileSnapshot("declarations/compound.d.gk.ts");
  });

  it("TypeScript accepts right calls and refuses wrong ones, at their lines", () => {
    writeFileSync(join(dir, "compound.d.gk.ts"), declarationText(file, r.ir!, r.sources));
    const s = "{ at: [1, 2, 3], w: [0.5, 0.25], inner: { id: 1, big: 2n } }";
    const args = `v: [1, 2, 3, 4], l: [1n, 2n], b: [true, false, true], s: ${s}`;
    const use = [
      'import { compound } from "./compound.gk";\nimport type { ReadonlyView } from "gk";',
      "declare const ro: ReadonlyView<BigUint64Array>, bytes: ReadonlyView<ArrayBuffer>;",
      `const { vs, ps } = await compound({ grid: 1, block: 1 }, { ${args}, vs: new Float32Array(8), rv: new BigUint64Array(2), ps: new ArrayBuffer(128), rps: bytes });`,
      `const o = await compound({ grid: 1, block: 1 }, { ${args}, vs: [[1, 2, 3]], rv: ro, ps: [${s}], rps: [${s}] });`,
      "const f: Float32Array = vs; const p: ArrayBuffer = ps; const q: readonly { readonly at: readonly [number, number, number] }[] = o.ps;",
      "void [f, p, q];",
      // Wrong: 3 lanes for an f32x4 (line 8), numbers for i64 lanes (line 9), a struct missing a field (line 10), a nested field of the wrong type (line 11),
      // an Int32Array for a global<f32x3> (line 12), a vector of 2 lanes in an array of f32x3 (line 13), vectors for an array of structs (line 14).
      `await compound({ grid: 1, block: 1 }, { ${args.replace("v: [1, 2, 3, 4]", "v: [1, 2, 3]")}, vs: new Float32Array(8), rv: ro, ps: new ArrayBuffer(128), rps: bytes });`,
      `await compound({ grid: 1, block: 1 }, { ${args.replace("l: [1n, 2n]", "l: [1, 2]")}, vs: new Float32Array(8), rv: ro, ps: new ArrayBuffer(128), rps: bytes });`,
      `await compound({ grid: 1, block: 1 }, { ${args.replace("w: [0.5, 0.25], ", "")}, vs: new Float32Array(8), rv: ro, ps: new ArrayBuffer(128), rps: bytes });`,
      `await compound({ grid: 1, block: 1 }, { ${args.replace("big: 2n", "big: 2")}, vs: new Float32Array(8), rv: ro, ps: new ArrayBuffer(128), rps: bytes });`,
      `await compound({ grid: 1, block: 1 }, { ${args}, vs: new Int32Array(8), rv: ro, ps: new ArrayBuffer(128), rps: bytes });`,
      `await compound({ grid: 1, block: 1 }, { ${args}, vs: [[1, 2]], rv: ro, ps: new ArrayBuffer(128), rps: bytes });`,
      `await compound({ grid: 1, block: 1 }, { ${args}, vs: new Float32Array(8), rv: ro, ps: [[1, 2, 3]], rps: bytes });`,
      "export {};",
    ].join("\n");
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
    writeFileSync(join(dir, "use.mts"), use);
    const program = ts.createProgram([join(dir, "use.mts")], {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowArbitraryExtensions: true, skipLibCheck: true, types: [], noUncheckedIndexedAccess: true,
      paths: { gk: [join(process.cwd(), "dist/index.d.ts")] }, baseUrl: dir,
    });
    const errors = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName.endsWith("use.mts"));
    const at = errors.map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1} TS${d.code}`);
    expect(at, errors.map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`).join("\n")).toEqual(["8 TS2322", "9 TS2322", "9 TS2322", "10 TS2741", "11 TS2322", "12 TS2322", "13 TS2322", "14 TS2322"]);
  });
});
