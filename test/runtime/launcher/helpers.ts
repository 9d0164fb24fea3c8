/** Shared by the launcher tests: building the launcher (and a sanitized one and a fake driver), running it raw. */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { expect } from "vitest";
import { GkRuntimeError } from "../../../src/runtime/launcher.js";
// @ts-expect-error: a plain .mjs script without type declarations
import { SANITIZER_FLAGS, buildLauncher } from "../../../scripts/build-launcher.mjs";
// @ts-expect-error: a plain .mjs script without type declarations
import { buildAddon } from "../../../scripts/build-native.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const LAUNCHER = join(ROOT, "build", "gpu_launcher");
/** A driver library name that never exists: the launcher then reports NO_CUDA_DRIVER on any machine. */
export const NO_DRIVER_ENV = { GK_LIBCUDA: "/nonexistent/gk-test/libcuda.so.1" } as const;

type BuildResult = { status: "built" | "up-to-date" | "no-compiler"; path: string };

let release: Promise<BuildResult> | undefined;
/** build/gpu_launcher, rebuilt if its sources changed. Throws if g++ is missing (the launcher tests need it). */
export async function ensureLauncher(): Promise<string> {
  release ??= buildLauncher() as Promise<BuildResult>;
  const r = await release;
  if (r.status === "no-compiler") throw new Error("g++ is needed to build gpu_launcher for these tests");
  return r.path;
}

let addon: Promise<{ status: string; path: string; why?: string }> | undefined;
/** native/build/Release/gk_native.node (the in-process addon), rebuilt if its sources changed. Throws if it cannot be built. */
export async function ensureAddon(): Promise<string> {
  addon ??= buildAddon() as Promise<{ status: string; path: string; why?: string }>;
  const r = await addon;
  if (r.status === "missing") throw new Error(`the in-process addon is needed for these tests: ${r.why}`);
  return r.path;
}

let sanitized: Promise<BuildResult> | undefined;
/** build/gpu_launcher-asan: AddressSanitizer and UBSan, aborting on the first finding. */
export async function ensureSanitizedLauncher(): Promise<string> {
  sanitized ??= buildLauncher({ out: join(ROOT, "build", "gpu_launcher-asan"), flags: SANITIZER_FLAGS }) as Promise<BuildResult>;
  const r = await sanitized;
  if (r.status === "no-compiler") throw new Error("g++ is needed to build gpu_launcher for these tests");
  return r.path;
}

const made: string[] = [];

/** A fresh temporary folder, removed by `removeTempDirs()`. */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `gk-${prefix}-`));
  made.push(d);
  return d;
}

/** Removes the folders this test file made (call from afterAll). */
export function removeTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Compiles test/runtime/launcher/fake-driver/fake_libcuda.cpp into `dir` and returns the env that selects it. */
export async function buildFakeDriver(dir: string): Promise<{ GK_LIBCUDA: string }> {
  const out = join(dir, "libcuda.so.1");
  const src = join(ROOT, "test", "runtime", "launcher", "fake-driver", "fake_libcuda.cpp");
  await execa("g++", ["-O1", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o", out, src]);
  return { GK_LIBCUDA: out };
}

/** Values of every element type with the awkward bit patterns (NaN payloads, -0, extremes), `n` of them. */
export function sampleArray(elem: "bool" | "i32" | "u32" | "i64" | "u64" | "f32" | "f64", n: number): Uint8Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array {
  const words = new Uint32Array(n * 2);
  let x = 0x9e3779b9 ^ n;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  switch (elem) {
    case "bool":
      return Uint8Array.from({ length: n }, (_, i) => words[i]! & 1);
    case "i32": {
      const a = new Int32Array(words.buffer, 0, n);
      if (n > 1) [a[0], a[1]] = [-2147483648, 2147483647];
      return a;
    }
    case "u32":
      return new Uint32Array(words.buffer, 0, n);
    case "i64": {
      const a = new BigInt64Array(words.buffer, 0, n);
      if (n > 0) a[0] = -(2n ** 63n);
      return a;
    }
    case "u64": {
      const a = new BigUint64Array(words.buffer, 0, n);
      if (n > 0) a[0] = 2n ** 64n - 1n;
      return a;
    }
    case "f32": {
      const a = new Float32Array(words.buffer, 0, n);
      const special = [NaN, -0, Infinity, -Infinity, 1e-45];
      special.slice(0, n).forEach((v, i) => (a[i] = v));
      if (n > 0) words[0] = 0x7fa00001; // a signalling NaN with a payload
      return a;
    }
    case "f64": {
      const a = new Float64Array(words.buffer, 0, n);
      [NaN, -0, -Infinity, 5e-324].slice(0, n).forEach((v, i) => (a[i] = v));
      if (n > 0) new BigUint64Array(words.buffer, 0, 1)[0] = 0xfff0000000000123n;
      return a;
    }
  }
}

/** The bytes of a TypedArray as hex, to compare bit for bit. */
export function hexOf(a: ArrayBufferView): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");
}

/** A module file the fake driver accepts, naming the kernels it holds. */
export function fakeModule(dir: string, kernels: string[]): string {
  const path = join(dir, "fake.ptx");
  writeFileSync(path, ["// fake-cuda module", ...kernels.map((k) => `kernel ${k}`), ""].join("\n"));
  return path;
}

/** Any readable file: --check reads the module file but never gives it to a driver. */
export function dummyModule(dir: string): string {
  const path = join(dir, "dummy.ptx");
  writeFileSync(path, "// not loaded in --check mode\n");
  return path;
}

export interface RawResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs the launcher with `stdin` and collects everything; never rejects. `fds` become its
 * descriptors 3, 4, ... After `timeoutMs` (default: none) it is killed (SIGKILL shows in `signal`).
 */
export function runRaw(bin: string, args: string[], stdin: string | Uint8Array, env: Record<string, string> = {}, fds: number[] = [], timeoutMs?: number): Promise<RawResult> {
  return new Promise((done) => {
    const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe", ...fds] });
    if (timeoutMs !== undefined) {
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.on("close", () => clearTimeout(timer));
    }
    const out: Buffer[] = [];
    let err = "";
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    child.stdin!.on("error", () => undefined);
    child.on("close", (code, signal) => done({ code, signal, stdout: Buffer.concat(out), stderr: err }));
    child.stdin!.end(stdin);
  });
}

/** The launcher's JSON answer (one line), or a test failure that shows what it printed. */
export function answer(r: RawResult): any {
  const text = r.stdout.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (status ${r.code}, signal ${r.signal}): ${text.slice(0, 300)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  }
}

/** The GkRuntimeError a launch fails with (the test fails if it succeeds or throws something else). */
export async function failure(p: Promise<unknown>): Promise<GkRuntimeError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GkRuntimeError);
    return e as GkRuntimeError;
  }
  throw new Error("expected a GkRuntimeError");
}
