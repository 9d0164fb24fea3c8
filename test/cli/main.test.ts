import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";

const dir = mkdtempSync(join(tmpdir(), "gk-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function gkc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = {
    out: (t) => (out += t.endsWith("\n") ? t : t + "\n"),
    err: (t) => (err += t.endsWith("\n") ? t : t + "\n"),
    color: false,
    cwd: process.cwd(),
    env: { ...process.env, GK_CACHE_DIR: join(dir, "cache") },
  };
  const code = await main(argv, io);
  return { code, out: out.trimEnd(), err: err.trimEnd() };
}

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe("gkc check", () => {
  it("exits 0 for a clean file and 1 with every error otherwise", async () => {
    expect(await gkc("check", "examples/saxpy.gk")).toMatchObject({ code: 0, err: "examples/saxpy.gk: no errors" });
    const bad = file("bad.gk", "device_kernel k(out: global<f32>) {\n  out[0] = a + b;\n}\n");
    const r = await gkc("check", bad);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}:2:12 - error GK2001: unknown name 'a'`);
    expect(r.err).toContain(`${bad}:2:16 - error GK2001: unknown name 'b'`);
    expect(r.err).toContain("Found 2 errors.");
  });
  it("prints JSON with --json", async () => {
    const r = await gkc("check", "--json", "spec/errors/GK3002-condition-not-bool.gk");
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.files[0].diagnostics[0]).toMatchObject({ code: "GK3002", severity: "error", line: 2, col: 7 });
  });
  it("checks the .gk modules a TypeScript or JavaScript file imports, locating their errors in them", async () => {
    mkdirSync(join(dir, "app"), { recursive: true });
    const bad = file("app/filters.gk", "device_kernel blur(out: global<f32>) {\n  out[0] = q;\n}\n");
    file("app/main.ts", 'import { openDevice } from "gk";\n// import { old } from "./old.gk";\nimport { blur } from "./filters.gk";\nconsole.log(openDevice, blur);\n');
    file("app/main.mjs", 'import mod from "./filters.gk";\nconsole.log(mod);\n');
    for (const host of ["app/main.ts", "app/main.mjs"]) {
      const r = await gkc("check", join(dir, host));
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain(`${bad}:2:12 - error GK2001: unknown name 'q'`);
      expect(r.err).not.toContain("old.gk");
    }
    file("app/filters.gk", "device_kernel blur(out: global<f32>) {\n  out[0] = 1.0;\n}\n");
    expect(await gkc("check", join(dir, "app/main.ts"))).toMatchObject({ code: 0, err: "2 files: no errors" });
  });
  it("checks a folder: its .gk files and the TypeScript files that use gk, as gkc types takes one", async () => {
    mkdirSync(join(dir, "tree/sub"), { recursive: true });
    mkdirSync(join(dir, "tree/node_modules"), { recursive: true });
    file("tree/sub/a.gk", "device_kernel a(out: global<f32>) {\n  out[0] = 1.0;\n}\n");
    file("tree/node_modules/skipped.gk", "device_kernel s(out: global<f32>) {\n  out[0] = nope;\n}\n");
    file("tree/host.ts", 'export const x = 1;\n');
    const k = file("tree/k.ts", 'import { kernel, type Global, type f32 } from "gk";\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = wrong;\n});\n');
    const r = await gkc("check", "--json", join(dir, "tree"));
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as { files: { file: string; diagnostics: { code: string; line: number }[] }[] };
    expect(j.files.map((f) => f.file)).toEqual([k, join(dir, "tree/sub/a.gk")]);
    expect(j.files[0]!.diagnostics.map((d) => `${d.code} ${d.line}`)).toEqual(["GK2001 3"]);
  });
  it("reports a file that cannot be read", async () => {
    const r = await gkc("check", join(dir, "missing.gk"));
    expect(r.code).toBe(1);
    expect(r.err).toContain("error GK7004: cannot read");
  });
});

describe("reports of many diagnostics", () => {
  it("print the first 100 of a file and say how many more there are", async () => {
    const f = file("many-errors.gk", "`\n".repeat(100_000));
    const r = await gkc("check", f);
    expect(r.code).toBe(1);
    expect(r.err.match(/error GK1001/g)).toHaveLength(100);
    expect(r.err).toContain("and 99900 more");
    expect(r.err).toContain("Found 100000 errors.");
    expect(r.err.length).toBeLessThan(50_000);
  });
  it("in JSON, keep the first 100 of a file and give the number left out", async () => {
    const f = file("many-errors.gk", "`\n".repeat(100_000));
    const r = await gkc("check", "--json", f);
    const j = JSON.parse(r.out);
    expect(j.files[0].diagnostics).toHaveLength(100);
    expect(j.files[0].omitted).toBe(99_900);
    expect(r.out.length).toBeLessThan(100_000);
  });
});

describe("gkc ir and cuda", () => {
  it("prints the typed IR, also before the passes", async () => {
    const r = await gkc("ir", "examples/saxpy.gk");
    expect(r.out).toContain("out[i] = (alpha *.f32 x[i]) +.f32 y[i];");
    expect((await gkc("ir", "examples/saxpy.gk", "--after", "check")).code).toBe(0);
    expect((await gkc("ir", "examples/saxpy.gk", "--after", "nope")).code).toBe(2);
  });
  it("prints CUDA with extern \"C\" __global__", async () => {
    const r = await gkc("cuda", "examples/saxpy.gk");
    expect(r.out).toContain('extern "C" __global__ void saxpy(');
    expect(r.out).toContain('#line 4 "examples/saxpy.gk"');
    expect((await gkc("cuda", "examples/saxpy.gk", "--no-line")).out).not.toContain("#line");
  });
});

describe("gkc run on the CPU simulator", () => {
  it("prints the first 64 elements of an array as text, every one with --all or --json, as --help says", async () => {
    const f = file("hundred.gk", "device_kernel k(out: global<i32>) { out[globalId.x] = 7; }\nlaunch k(out = zeros(100)) grid(1) block(100);\n");
    const count = (line: string) => (line.match(/\b7\b/g) ?? []).length;
    expect(count((await gkc("run", f, "--device", "cpu")).out)).toBe(64);
    expect(count((await gkc("run", f, "--device", "cpu", "--all")).out)).toBe(100);
    expect(JSON.parse((await gkc("run", f, "--device", "cpu", "--json")).out).launches[0].outputs.out).toHaveLength(100);
    const help = (await gkc("run", "--help")).out;
    const all = /^ {2}--all\b[\s\S]*?(?=\n {2}--)/m.exec(help)![0];
    expect(all).toMatch(/64/);
    expect(all, "the --all line says that --json prints every element").toMatch(/--json/);
  });

  it("prints the saxpy line", async () => {
    const r = await gkc("run", "examples/saxpy.gk", "--device", "cpu");
    expect(r).toMatchObject({ code: 0, out: "out = [3.5, 6, 8.5, 11, 13.5, 16, 18.5, 21]", err: "gkc: running on the CPU simulator" });
  });
  it("prints one JSON object with --json", async () => {
    const r = await gkc("run", "examples/reduce.gk", "--device", "cpu", "--json");
    const j = JSON.parse(r.out);
    expect(j.launches[0]).toMatchObject({ kernel: "block_sum", device: "cpu", outputs: { total: [499500], partial: [32640, 98176, 163712, 204972] } });
    expect(typeof j.launches[0].kernel_ms).toBe("number");
  });
  it("runs the instances a generic kernel's launch statements name, and one named by --kernel", async () => {
    const r = await gkc("run", "examples/reduce_generic.gk", "--device", "cpu", "--json");
    const j = JSON.parse(r.out);
    expect(j.launches.map((l: { kernel: string }) => l.kernel)).toEqual(["block_sum<f32, 256>", "block_sum<i32, 128>", "block_sum<f64, 512>"]);
    expect(j.launches[0].outputs).toEqual({ total: [499500], partial: [32640, 98176, 163712, 204972] });
    const i32 = j.launches[1].outputs;
    expect(i32.total).toEqual([i32.partial.reduce((a: number, b: number) => a + b, 0)]);
    const text = await gkc("run", "examples/reduce_generic.gk", "--device", "cpu");
    expect(text.out.split("\n").slice(0, 3)).toEqual(["# block_sum<f32, 256> (examples/reduce_generic.gk:29)", "partial = [32640, 98176, 163712, 204972]", "total = [499500]"]);
    const one = await gkc("run", "examples/reduce_generic.gk", "--device", "cpu", "--kernel", "block_sum<i32, 64>", "--grid", "2", "--block", "64", "--arg", "n=100", "--arg", "x=iota(100)", "--arg", "partial=zeros(2)", "--arg", "total=zeros(1)");
    expect(one.out).toBe("partial = [2016, 2934]\ntotal = [4950]");
    const bad = await gkc("run", "examples/reduce_generic.gk", "--device", "cpu", "--kernel", "block_sum<u8, 64>", "--arg", "n=1");
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/GK2003|GK3031/);
  });

  it("runs a kernel from flags, checking the arguments like a launch statement", async () => {
    const r = await gkc("run", "examples/saxpy.gk", "--device", "cpu", "--kernel", "saxpy", "--grid", "1", "--block", "4", "--arg", "n=4", "--arg", "alpha=2", "--arg", "x=iota(4)", "--arg", "y=[1, 1, 1, 1]", "--arg", "out=zeros(4)");
    expect(r.out).toBe("out = [1, 3, 5, 7]");
    const bad = await gkc("run", "examples/saxpy.gk", "--device", "cpu", "--kernel", "saxpy", "--arg", "n=4.5", "--arg", "alpha=2", "--arg", "x=iota(4)", "--arg", "y=[1]", "--arg", "out=zeros(4)");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("error GK3007: the float constant 4.5 is used where i32 is expected");
  });
  it("prints arrays of vectors as vectors and arrays of structs as objects, in text and JSON, and takes them from --arg", async () => {
    const src = file(
      "compound.gk",
      `struct Node { start: i32; edges: f32x2; }
device_kernel k(nodes: global<Node>, vs: global<f32x3>, base: Node, shift: f32x3) {
  const i = globalId.x;
  nodes[i].start += base.start;
  nodes[i].edges = base.edges * f32(i);
  vs[i] = shift + f32x3(f32(i));
}
launch k(nodes = [{ start: 1, edges: f32x2(0) }, { start: 2, edges: f32x2(0) }], vs = zeros(2), base = { start: 10, edges: f32x2(0.5, -1) }, shift = f32x3(1, 2, 3)) grid(1) block(2);
`,
    );
    const r = await gkc("run", src, "--device", "cpu");
    expect(r.out).toBe("nodes = [{ start: 11, edges: [0, -0] }, { start: 12, edges: [0.5, -1] }]\nvs = [[1, 2, 3], [2, 3, 4]]");
    const j = JSON.parse((await gkc("run", src, "--device", "cpu", "--json")).out);
    expect(j.launches[0].outputs).toEqual({ nodes: [{ start: 11, edges: [0, "-0"] }, { start: 12, edges: [0.5, -1] }], vs: [[1, 2, 3], [2, 3, 4]] });
    const flags = await gkc("run", src, "--device", "cpu", "--kernel", "k", "--block", "1", "--arg", "nodes=fill(1, { start: 5, edges: f32x2(1) })", "--arg", "vs=zeros(1)", "--arg", "base={ start: 1, edges: f32x2(2) }", "--arg", "shift=f32x3(7)");
    expect(flags.out).toBe("nodes = [{ start: 6, edges: [0, 0] }]\nvs = [[7, 7, 7]]");
  });
  it("takes dynamic shared lengths with --shared and constant arrays with --arg", async () => {
    const reduce = ["run", "examples/reduce_dynamic.gk", "--device", "cpu", "--kernel", "block_sum", "--grid", "2", "--block", "8", "--arg", "n=16", "--arg", "x=iota(16)", "--arg", "partial=zeros(2)", "--arg", "total=zeros(1)"];
    expect((await gkc(...reduce, "--shared", "buf=8")).out).toBe("partial = [28, 92]\ntotal = [120]");
    const missing = await gkc(...reduce);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("error GK5002: launch of 'block_sum' is missing the length of 'buf', a dynamic shared array");
    const blur = ["run", "spec/ok/constant_memory.gk", "--device", "cpu", "--kernel", "blur", "--grid", "1", "--block", "8", "--arg", "n=8", "--arg", "x=iota(8)", "--arg", "out=zeros(8)"];
    expect((await gkc(...blur, "--arg", "TAPS=[0.0, 0.0, 1.0, 0.0, 0.0]")).out).toBe("out = [0, 0, 2, 3, 4, 5, 0, 0]");
    expect((await gkc(...blur)).err).toContain("error GK5002: launch of 'blur' is missing the argument 'TAPS'");
  });
  it("reports a kernel's bug with its line, thread and block", async () => {
    const oob = file("oob.gk", "device_kernel k(out: global<f32>) {\n  out[globalId.x + 1] = 1.0;\n}\nlaunch k(out = zeros(4)) grid(1) block(4);\n");
    const r = await gkc("run", oob, "--device", "cpu");
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${oob}:2:3 - error GK8001: out-of-bounds write out[4]: out has 4 elements`);
  });
  it("reports the failure of a launch with no array (a queued launch, waited for)", async () => {
    const local = file("local.gk", "device_kernel k(n: i32) {\n  let s: f32[4];\n  s[n] = 1.0;\n}\nlaunch k(n = 9) grid(1) block(1);\n");
    const r = await gkc("run", local, "--device", "cpu");
    expect(r).toMatchObject({ code: 1, out: "" });
    expect(r.err).toContain(`${local}:3:3 - error GK8001: out-of-bounds write s[9]: s is local f32[4]`);
  });
  it("prints what the launches before a failing one computed, then its error", async () => {
    const two = file(
      "two.gk",
      "device_kernel k(n: i32, out: global<i32>) {\n  out[globalId.x * n] = globalId.x;\n}\nlaunch k(n = 1, out = zeros(4)) grid(1) block(4);\nlaunch k(n = 2, out = zeros(4)) grid(1) block(4);\n",
    );
    const r = await gkc("run", two, "--device", "cpu");
    expect(r.code).toBe(1);
    expect(r.out).toBe(`# k (${two}:4)\nout = [0, 1, 2, 3]`);
    expect(r.err).toContain(`${two}:2:3 - error GK8001: out-of-bounds write out[4]`);
    const j = await gkc("run", two, "--device", "cpu", "--json");
    expect(j.code).toBe(1);
    const parsed = JSON.parse(j.out);
    expect(parsed.launches.map((l: { outputs: unknown }) => l.outputs)).toEqual([{ out: [0, 1, 2, 3] }]);
    expect(parsed.error.code).toBe("GK8001");
  });
  it("says when a file has no launch statement", async () => {
    const none = file("none.gk", "device_kernel k(out: global<f32>) { out[0] = 1.0; }\n");
    expect((await gkc("run", none, "--device", "cpu")).err).toContain("has no launch statements");
  });
  it("refuses --device cuda without a GPU, naming why", async () => {
    const r = await gkc("run", "examples/saxpy.gk", "--device", "cuda", "--gpu", "7");
    if (r.code === 0) return; // a machine with a GPU 7
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/GK8007: a GPU was asked for \(device cuda\), but none can be used/);
  });
});

describe("gkc build, cache and devices", () => {
  it("builds PTX and a cubin into a folder, then hits the cache", async () => {
    const out = join(dir, "out");
    const first = await gkc("build", "examples/saxpy.gk", "--arch", "sm_90", "--out", out);
    expect(first.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["saxpy.cu", "saxpy.cubin", "saxpy.ptx"]);
    expect(first.err).toMatch(/built with nvcc/);
    const second = await gkc("build", "examples/saxpy.gk", "--arch", "sm_90");
    expect(second.err).toMatch(/cache hit/);
    const ls = await gkc("cache", "ls");
    expect(ls.out).toContain("saxpy");
    expect((await gkc("cache", "path")).out).toBe(join(dir, "cache"));
    expect((await gkc("cache", "clear")).out).toMatch(/^removed 1 entry/);
  });
  it("--out DIR writes no file through a link or into a folder planted there, and says which", async () => {
    const out = join(dir, "out-planted");
    mkdirSync(join(out, "saxpy.ptx"), { recursive: true });
    writeFileSync(join(dir, "victim.txt"), "precious\n");
    symlinkSync("../victim.txt", join(out, "saxpy.cu"));
    const r = await gkc("build", "examples/saxpy.gk", "--arch", "sm_90", "--out", out);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cannot write '${join(out, "saxpy.cu")}': it is a symlink`);
    expect(readFileSync(join(dir, "victim.txt"), "utf8")).toBe("precious\n");
    expect(lstatSync(join(out, "saxpy.cu")).isSymbolicLink()).toBe(true);
    rmSync(join(out, "saxpy.cu"));
    const again = await gkc("build", "examples/saxpy.gk", "--arch", "sm_90", "--out", out);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`cannot write '${join(out, "saxpy.ptx")}': it is a directory`);
    expect(readFileSync(join(out, "saxpy.cu"), "utf8")).toContain("saxpy");
  });

  it("lists the TypeScript kernel files lowered once beside the builds, not (empty)", async () => {
    const root = join(dir, "ls-cache");
    const { layoutOf } = await import("../../src/cacheFolder.js");
    const { writeCheckedEntry } = await import("../../src/tsfront/cache.js");
    const ts = layoutOf(root).ts;
    const key = "ab".repeat(32);
    writeCheckedEntry(ts, `${key}.json`, "gk-lowering", key, JSON.stringify({ module: { kind: "Module", file: "/app/kernels.ts", items: [] }, diagnostics: [] }));
    let out = "";
    const io: Io = { out: (t) => (out += t), err: () => {}, color: false, cwd: process.cwd(), env: { ...process.env, GK_CACHE_DIR: root } };
    expect(await main(["cache", "ls"], io)).toBe(0);
    expect(out).toMatch(/^TYPESCRIPT FILE +SIZE +AGE\n\/app\/kernels\.ts +\d+ B +.*\n\n1 TypeScript file lowered, \d+ B$/);
    out = "";
    expect(await main(["cache", "ls", "--json"], io)).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ entries: [], lowerings: [{ key: "ab".repeat(32), file: "/app/kernels.ts" }] });
  });
  it("lists devices or says why there are none", async () => {
    const r = await gkc("devices");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/no GPU|sm_\d+/);
  });
});

describe("gkc run on the simulator", () => {
  const loop = () => file("loop.gk", "device_kernel k(n: i32, out: global<i32>) {\n  for (let j = 0; j < n; j += 1) { out[globalId.x] += 1; }\n}\nlaunch k(n = 100, out = zeros(64)) grid(4) block(16);\n");
  it("takes the loop iterations each thread may take from --steps-per-thread or GK_STEPS_PER_THREAD", async () => {
    const f = file("loops.gk", "device_kernel k(n: i32, out: global<i32>) {\n  for (let j = 0; j < n; j += 1) { out[globalId.x] += 1; }\n}\nlaunch k(n = 100, out = zeros(2048)) grid(64) block(32);\n");
    const r = await gkc("run", f, "--device", "cpu", "--steps-per-thread", "50");
    expect(r.code).toBe(1);
    expect(r.err).toContain("error GK8004: step budget exceeded: more than 102,400 loop iterations in this launch (50 per thread, 2,048 threads)");
    expect((await gkc("run", f, "--device", "cpu", "--steps-per-thread", "100")).code).toBe(0);
    let err = "";
    const io: Io = { out: () => {}, err: (t) => (err += t), color: false, cwd: process.cwd(), env: { ...process.env, GK_STEPS_PER_THREAD: "50", GK_CACHE_DIR: join(dir, "cache") } };
    expect(await main(["run", f, "--device", "cpu"], io)).toBe(1);
    expect(err).toContain("(50 per thread, 2,048 threads)");
    expect((await gkc("run", f, "--steps-per-thread", "many")).err).toContain("--steps-per-thread takes a whole number of loop iterations, 1 or more (got 'many')");
  });
  it("shows the blocks done on the status line, and clears it", async () => {
    const shown: (string | undefined)[] = [];
    const { setStatusLine } = await import("../../src/progress.js");
    // Every block shown at once (a terminal shows them after a second, five times a second).
    const io: Io = { out: () => {}, err: () => {}, color: false, cwd: process.cwd(), env: { ...process.env, GK_CACHE_DIR: join(dir, "cache") }, status: (t) => shown.push(t) };
    const before = setStatusLine(undefined, { after: 0, every: 0 });
    try {
      expect(await main(["run", loop(), "--device", "cpu"], { ...io })).toBe(0);
    } finally {
      setStatusLine(before, {});
    }
    expect(shown.filter((t) => t?.startsWith("simulating k:"))).toEqual([1, 2, 3, 4].map((b) => `simulating k: block ${b} of 4 (${b * 25}%)`));
    expect(shown.at(-1)).toBeUndefined();
  });
  it("of a TypeScript file without --kernel says to pass --kernel", async () => {
    const f = file("tk.ts", 'import { kernel, type Global, type f32 } from "gk";\nexport const k = kernel((out: Global<f32>) => {\n  out[0] = 1.0;\n});\n');
    const r = await gkc("run", f, "--device", "cpu");
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${f} is a TypeScript file, which has no launch statements: run one of its kernels with --kernel K`);
  });
});

describe("usage", () => {
  it("prints help, versions and usage errors", async () => {
    expect((await gkc("--help")).out).toContain("usage: gkc <command> [options]");
    expect((await gkc("run", "--help")).out).toContain("--device auto|cuda|cpu");
    expect((await gkc("help", "check")).out).toMatch(/^gkc check FILE\|DIR\.\.\. \[--json\]/);
    expect(await gkc("check")).toMatchObject({ code: 2, err: expect.stringMatching(/^gkc check: gkc check needs at least one \.gk file, TypeScript file or folder\n\ngkc check FILE\|DIR\.\.\./) });
    expect((await gkc("--version")).out).toMatch(/^\d+\.\d+\.\d+$/);
    expect((await gkc("frobnicate")).code).toBe(2);
    expect((await gkc("chekc")).err).toMatch(/^gkc: unknown command 'chekc'; did you mean 'check'\?/);
    expect((await gkc("run", "examples/saxpy.gk", "--device", "gpu")).err).toContain("--device must be auto, cuda, cpu or webgpu");
    expect((await gkc("run", "examples/saxpy.gk", "--bogus")).code).toBe(2);
    expect((await gkc("run", "examples/saxpy.gk", "--grid", "0")).err).toContain("--grid, --block, --arg and --shared go with --kernel K");
  });
});

describe("gkc run --check-races", () => {
  it("runs on the simulator and reports a data race with both accesses (GK8040)", async () => {
    const r = await gkc("run", "--check-races", "spec/errors/GK8040-data-race.gk");
    expect(r.code).toBe(1);
    expect(r.err).toContain("gkc: running on the CPU simulator");
    expect(r.err).toContain("GK8040-data-race.gk:10:7 - error GK8040: data race on shared s[1]: thread (1,0,0) of block (0,0,0) writes it at line 10, column 7, and thread (0,0,0) of block (0,0,0) read it at line 10, column 15");
    // Without the flag the race goes unseen: the simulator prints whatever its order gives.
    expect((await gkc("run", "--device", "cpu", "spec/errors/GK8040-data-race.gk")).code).toBe(0);
  });
  it("refuses --device cuda", async () => {
    const r = await gkc("run", "--check-races", "--device", "cuda", "spec/errors/GK8040-data-race.gk");
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("--check-races runs on the simulator");
  });
});
