import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSourceFile, SourceMap, type Diagnostic } from "../../src/diagnostics/index.js";
import {
  BuildError,
  compileCuda,
  findNvcc,
  nvccTimeoutMs,
  nvccVersion,
  quoteArg,
  quoteCommand,
} from "../../src/build/nvcc.js";
import { setStatusLine } from "../../src/progress.js";
import { countingNvcc, fakeNvcc, type CountingNvcc } from "./fixtures/nvcc-wrapper.js";
import { killProcessesIn, processesIn, waitEnded } from "../runtime/fixtures/processes.js";
import { BROKEN, BROKEN_GK, SAXPY, SLOW } from "./fixtures/sources.js";

let work: string;
let realNvcc: string;
let counting: CountingNvcc;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "gk-nvcc-test-"));
  realNvcc = findNvcc().path;
  counting = countingNvcc(work, realNvcc);
});
afterAll(() => {
  killProcessesIn(work); // a failed test must not leave an nvcc (or its cicc) running
  rmSync(work, { recursive: true, force: true });
});

/** The BuildError a promise rejects with. */
async function buildError(p: Promise<unknown>): Promise<BuildError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BuildError);
  return e as BuildError;
}

function commandOf(diags: readonly Diagnostic[]): string {
  const note = diags.flatMap((d) => d.notes).find((n) => n.message.startsWith("command: "));
  expect(note, "a note with the command").toBeDefined();
  return note!.message.slice("command: ".length);
}

describe("findNvcc", () => {
  it("takes GK_NVCC first, then PATH, then CUDA_HOME, CUDA_PATH and the default folders", () => {
    const dirs = ["override", "onpath", "home/bin", "cudapath/bin", "default/bin"].map((d) => path.join(work, "find", d));
    const [override, onPath, home, cudaPath, dflt] = dirs.map((d) => fakeNvcc(mkdirp(d), "nvcc", "exit 0")) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const emptyDir = mkdirp(path.join(work, "find", "empty"));
    const env = {
      GK_NVCC: override,
      PATH: path.dirname(onPath),
      CUDA_HOME: path.dirname(path.dirname(home)),
      CUDA_PATH: path.dirname(path.dirname(cudaPath)),
    };
    expect(findNvcc(env, [dflt])).toEqual({ path: override, via: "GK_NVCC" });
    expect(findNvcc({ ...env, GK_NVCC: "" }, [dflt])).toEqual({ path: onPath, via: "PATH" });
    expect(findNvcc({ ...env, GK_NVCC: undefined, PATH: emptyDir }, [dflt])).toEqual({ path: home, via: "CUDA_HOME" });
    expect(findNvcc({ PATH: emptyDir, CUDA_PATH: env.CUDA_PATH }, [dflt])).toEqual({ path: cudaPath, via: "CUDA_PATH" });
    expect(findNvcc({ PATH: emptyDir }, [dflt])).toEqual({ path: dflt, via: "default" });
  });

  it("reports GK7001 naming every place it looked when nvcc is nowhere", () => {
    let caught: unknown;
    try {
      findNvcc({ PATH: "/usr/bin:/bin", CUDA_HOME: "/nonexistent/cuda" }, ["/nonexistent/default/nvcc"]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(BuildError);
    const [d] = (caught as BuildError).diagnostics;
    expect(d).toMatchObject({ code: "GK7001", severity: "error" });
    expect(d!.message).toContain("'nvcc' on PATH (2 folders)");
    expect(d!.message).toContain("/nonexistent/cuda/bin/nvcc");
    expect(d!.message).toContain("$CUDA_PATH is not set");
    expect(d!.message).toContain("/nonexistent/default/nvcc");
    expect(d!.notes[0]!.message).toMatch(/install the CUDA toolkit.*set GK_NVCC/);
  });

  it("reports GK7001 for a GK_NVCC that points at nothing, without falling back to PATH", () => {
    expect(() => findNvcc({ GK_NVCC: "/nonexistent", PATH: path.dirname(realNvcc) })).toThrow(
      /GK7001: nvcc not found: GK_NVCC is set to '\/nonexistent', which is not an executable file/,
    );
  });
});

describe("nvccVersion", () => {
  it("parses nvcc --version once per process", async () => {
    const v = await nvccVersion(realNvcc);
    expect(v.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(v.version.startsWith(v.release + ".")).toBe(true);
    expect(v.text).toContain(`V${v.version}`);
    expect(nvccVersion(realNvcc)).toBe(nvccVersion(realNvcc));
  });

  it("reports GK7002 when the program answers like no nvcc", async () => {
    const impostor = fakeNvcc(work, "impostor", "echo 'hello'");
    const e = await buildError(nvccVersion(impostor));
    expect(e.diagnostics[0]).toMatchObject({ code: "GK7002" });
    expect(e.diagnostics[0]!.message).toContain("printed no version");
  });
});

describe("compileCuda", () => {
  it("builds PTX and a cubin for sm_90 in two parallel nvcc runs with -O3 -lineinfo and the extra flags", async () => {
    const before = counting.compileRuns().length;
    const outDir = path.join(work, "saxpy");
    const r = await compileCuda({
      source: SAXPY,
      arch: "sm_90",
      flags: ["--fmad=false"],
      outDir,
      baseName: "saxpy",
      nvcc: counting.path,
    });
    expect(r.cu).toBe(path.join(outDir, "saxpy.cu"));
    expect(readFileSync(r.cu, "utf8")).toBe(SAXPY);
    const ptx = readFileSync(r.ptx, "utf8");
    expect(ptx).toContain(".target sm_90");
    expect(ptx).toMatch(/\.entry saxpy\(/);
    expect([...readFileSync(r.cubin).subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]); // ELF
    expect(r.commands.ptx).toEqual(["-O3", "-lineinfo", "-arch=sm_90", "--fmad=false", "-ptx", "saxpy.cu", "-o", "saxpy.ptx"]);
    expect(r.commands.cubin).toEqual(["-O3", "-lineinfo", "-arch=sm_90", "--fmad=false", "-cubin", "saxpy.cu", "-o", "saxpy.cubin"]);
    expect(counting.compileRuns().slice(before)).toHaveLength(2);
    expect(r.warnings).toEqual([]);
    // The runs overlap: the whole call takes less than the two runs one after the other.
    expect(r.timings.totalMs).toBeLessThan(r.timings.ptxMs + r.timings.cubinMs);
  });

  it("maps nvcc's errors through #line to the .gk line and shows a command that reproduces them", async () => {
    const sources = new SourceMap();
    sources.add(makeSourceFile("k.gk", BROKEN_GK));
    const outDir = path.join(work, "broken");
    const e = await buildError(compileCuda({ source: BROKEN, arch: "sm_90", outDir, baseName: "kernel", sourceMap: sources }));

    const [summary, ...rest] = e.diagnostics;
    expect(summary).toMatchObject({ code: "GK7002", severity: "error", span: undefined });
    expect(summary!.message).toMatch(/^nvcc failed with exit code \d+ compiling kernel\.cu to (PTX|a cubin) for sm_90 \(1 error\)$/);
    const mapped = rest.find((d) => d.span !== undefined);
    expect(mapped).toMatchObject({ code: "GK7002", severity: "error", message: 'identifier "undefined_name" is undefined' });
    expect(sources.locate(mapped!.span!)).toBe("k.gk:3:3"); // the line, from its first non-blank character
    expect(BROKEN_GK.slice(mapped!.span!.start, mapped!.span!.end)).toBe("y[0] = undefined_name;");
    // Both runs fail the same way; one summary and one message are reported.
    expect(e.diagnostics.filter((d) => d.message.startsWith("nvcc failed"))).toHaveLength(1);
    expect(mapped!.notes[0]!.message).toBe("in the generated CUDA: y[0] = undefined_name;");
    // Both runs print the same error; it is reported once.
    expect(rest.filter((d) => d.message.includes("undefined_name"))).toHaveLength(1);
    expect(e.message).toContain("k.gk:3:3 - error GK7002");

    const command = commandOf(e.diagnostics);
    expect(command).toBe(
      `cd ${outDir} && ${realNvcc} -O3 -lineinfo -arch=sm_90 ${command.includes("-ptx") ? "-ptx kernel.cu -o kernel.ptx" : "-cubin kernel.cu -o kernel.cubin"}`,
    );
    const rerun = await execa("sh", ["-c", command], { reject: false });
    expect(rerun.exitCode).not.toBe(0);
    expect(rerun.stderr).toContain('k.gk(3): error: identifier "undefined_name" is undefined');
  });

  it("keeps file:line text when it has no SourceMap", async () => {
    const e = await buildError(compileCuda({ source: BROKEN, arch: "sm_90", outDir: path.join(work, "nomap"), baseName: "kernel" }));
    expect(e.diagnostics.map((d) => d.message)).toContain('k.gk:3: identifier "undefined_name" is undefined');
  });

  it("reports GK7001, not a spawn failure, when the nvcc to run does not exist", async () => {
    const e = await buildError(
      compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "none"), baseName: "k", nvcc: "/nonexistent/nvcc" }),
    );
    expect(e.diagnostics).toHaveLength(1);
    expect(e.diagnostics[0]).toMatchObject({ code: "GK7001" });
    expect(e.diagnostics[0]!.message).toContain("could not run '/nonexistent/nvcc' (ENOENT");
  });

  it("stops an nvcc that runs past its time limit and says so", async () => {
    // Bounds far from both sides (stopped at 0.3 s, left alone 10 min), so that a loaded machine's delays cannot decide.
    const slow = fakeNvcc(work, "slow-nvcc", "exec sleep 600");
    const t0 = Date.now();
    const e = await buildError(
      compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "slow"), baseName: "k", nvcc: slow, timeoutMs: 300 }),
    );
    expect(Date.now() - t0).toBeLessThan(120_000);
    expect(e.diagnostics[0]).toMatchObject({ code: "GK7002" });
    expect(e.diagnostics[0]!.message).toMatch(/^nvcc timed out after 0\.\d s compiling k\.cu to (PTX|a cubin) for sm_90 and was stopped$/);
    expect(commandOf(e.diagnostics)).toContain(`${slow} -O3 -lineinfo -arch=sm_90`);
  });

  it("takes its time limit from GK_NVCC_TIMEOUT (seconds), and the note of a timeout names it", async () => {
    expect(nvccTimeoutMs({})).toBe(300_000);
    expect(nvccTimeoutMs({ GK_NVCC_TIMEOUT: "1800" })).toBe(1_800_000);
    expect(nvccTimeoutMs({ GK_NVCC_TIMEOUT: "0.25" })).toBe(250);
    expect(nvccTimeoutMs({ GK_NVCC_TIMEOUT: "0" })).toBe(0); // no limit
    for (const bad of ["soon", "-1", "1e400", "5m"]) {
      const e = (() => {
        try {
          nvccTimeoutMs({ GK_NVCC_TIMEOUT: bad });
        } catch (err) {
          return err;
        }
      })();
      expect(e, bad).toBeInstanceOf(BuildError);
      expect((e as BuildError).diagnostics[0]!.message).toBe(`GK_NVCC_TIMEOUT must be a number of seconds (0: no limit), got ${JSON.stringify(bad)}`);
    }
    const slow = fakeNvcc(work, "slow-nvcc-env", "exec sleep 30");
    process.env.GK_NVCC_TIMEOUT = "0.3";
    try {
      const e = await buildError(compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "slow-env"), baseName: "k", nvcc: slow }));
      expect(e.diagnostics[0]!.message).toMatch(/^nvcc timed out after 0\.\d s/);
      expect(e.diagnostics[0]!.notes.map((n) => n.message)).toContain("a very large kernel may need a longer time limit: set GK_NVCC_TIMEOUT to the seconds nvcc may take (now 0.3; 0: no limit)");
    } finally {
      delete process.env.GK_NVCC_TIMEOUT;
    }
  });

  it("shows a build that takes long on the status line, and clears it", async () => {
    const slow = fakeNvcc(work, "slower-nvcc", "exec sleep 30");
    const shown: (string | undefined)[] = [];
    // Shown at once and every 10 ms here (a terminal: after a second, five times a second).
    const before = setStatusLine((t) => shown.push(t), { after: 0, every: 10 });
    try {
      await buildError(compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "slower"), baseName: "k", nvcc: slow, timeoutMs: 300 }));
    } finally {
      setStatusLine(before, {});
    }
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.slice(0, -1).every((t) => /^building k\.cu with nvcc \(sm_90\): 0 s$/.test(t ?? ""))).toBe(true);
    expect(shown.at(-1)).toBeUndefined();
  });

  it("stops nvcc's children too when nvcc runs past its time limit (they hold its output pipes)", async () => {
    const pidFile = path.join(work, "tree-child.pid");
    const tree = fakeNvcc(work, "tree-nvcc", `sleep 600 &\necho $! > ${quoteArg(pidFile)}\nwait`);
    const t0 = Date.now();
    const e = await buildError(
      compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "tree"), baseName: "k", nvcc: tree, timeoutMs: 300 }),
    );
    expect(Date.now() - t0).toBeLessThan(120_000);
    expect(e.diagnostics[0]!.message).toMatch(/^nvcc timed out after/);
    const children = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    expect(await waitEnded(children, 60_000), "the children of nvcc still run").toEqual([]);
  });

  it("stops the other run's whole process tree when one run fails", async () => {
    const pidFile = path.join(work, "cancel-child.pid");
    const body = `case " $* " in *" -ptx "*) echo 'k.cu(1): error: broken' >&2; exit 2;; esac\nsleep 600 &\necho $! > ${quoteArg(pidFile)}\nwait`;
    const half = fakeNvcc(work, "half-nvcc", body);
    const t0 = Date.now();
    const e = await buildError(compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "cancel"), baseName: "k", nvcc: half }));
    expect(Date.now() - t0).toBeLessThan(120_000);
    expect(e.diagnostics[0]!.message).toMatch(/^nvcc failed with exit code 2 compiling k\.cu to PTX/);
    if (existsSync(pidFile)) {
      const children = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
      expect(await waitEnded(children, 60_000), "the cubin run's children still run").toEqual([]);
    }
  });

  it("leaves no cicc running after a real nvcc on a slow program runs past a short limit", async () => {
    const outDir = path.join(work, "slow-real");
    const t0 = Date.now();
    const e = await buildError(compileCuda({ source: SLOW, arch: "sm_90", outDir, baseName: "k", timeoutMs: 1_500 }));
    expect(Date.now() - t0).toBeLessThan(8_000);
    expect(e.diagnostics[0]!.message).toMatch(/^nvcc timed out after 1\.\d s compiling k\.cu/);
    // cicc and ptxas work in nvcc's folder: nothing may be left running there.
    expect(await waitEnded(processesIn(outDir), 30_000)).toEqual([]);
  });

  it("reports an nvcc killed by a signal", async () => {
    const killed = fakeNvcc(work, "killed-nvcc", "echo 'about to die' >&2\nkill -9 $$");
    const e = await buildError(compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "killed"), baseName: "k", nvcc: killed }));
    expect(e.diagnostics[0]!.message).toMatch(/^nvcc was killed by SIGKILL while compiling k\.cu/);
    expect(e.diagnostics[0]!.notes.map((n) => n.message)).toContain("nvcc: about to die");
  });

  it("reports nvcc's own fatal errors, such as an unknown architecture", async () => {
    const e = await buildError(compileCuda({ source: SAXPY, arch: "sm_1", outDir: path.join(work, "arch"), baseName: "k" }));
    expect(e.diagnostics.map((d) => d.message)).toContain("nvcc fatal: Unsupported gpu architecture 'sm_1'");
  });

  it("refuses an architecture or a flag that a shell would read as code, before running nvcc", async () => {
    const marker = path.join(work, "pwned-arch");
    for (const [arch, flags] of [[`sm_90$(touch ${marker})`, []], ["sm_90", [`-Xcompiler=\`touch ${marker}\``]], ["sm_90", ["--fmad=false", "-DX='1'"]]] as const) {
      const e = await buildError(compileCuda({ source: SAXPY, arch, flags, outDir: path.join(work, "hostile-flags"), baseName: "k", nvcc: counting.path }));
      expect(e.diagnostics[0]).toMatchObject({ code: "GK7002", message: expect.stringMatching(/^refusing to pass .* to nvcc: an? (architecture|flag) may hold only/) });
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("reports a run that claims success but writes nothing", async () => {
    const liar = fakeNvcc(work, "liar-nvcc", "exit 0");
    const e = await buildError(compileCuda({ source: SAXPY, arch: "sm_90", outDir: path.join(work, "liar"), baseName: "k", nvcc: liar }));
    expect(e.diagnostics[0]!.message).toMatch(/^nvcc reported success but wrote no k\.(ptx|cubin)$/);
  });
});

describe("quoteCommand", () => {
  it("quotes arguments so that a POSIX shell reads them back unchanged", async () => {
    const args = ["plain", "with space", "it's", "$HOME", "a\"b", "-arch=sm_90", "", "*"];
    const printer = path.join(work, "print-args.sh");
    writeFileSync(printer, 'for a in "$@"; do printf "[%s]" "$a"; done');
    const r = await execa("sh", ["-c", quoteCommand(["sh", printer, ...args])]);
    expect(r.stdout).toBe(args.map((a) => `[${a}]`).join(""));
  });
});

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
