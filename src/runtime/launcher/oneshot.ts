/** One launcher process per call: `launchOnce` (one-shot and --check modes) and `listDevices` (--devices). */
import { existsSync } from "node:fs";
import { GkRuntimeError } from "../errors.js";
import { fromLauncherError, launcherFailed, parseLauncherError } from "./errors.js";
import { bytesOf, checkHostArray, deliver, elemSize, parseAnswer, parseTiming, requestChunks, type ArgPlaces } from "./codec.js";
import { describeExit, launcherPath, runProcess, type ProcessResult } from "./process.js";
import { DEFAULT_SHARED_MIN_BYTES, FilePlan, SharedFile } from "./shared.js";
import type { DeviceInfo, DevicesResult, KernelArg, LaunchOnceOptions, LaunchResult, LauncherOptions, ScalarName } from "./types.js";
import type { AnyTypedArray } from "../../ir/values.js";
import { buildDeferredNativeParts } from "../nativeParts.js";

/** Extra time the launcher process gets, beyond a kernel timeout, before it is killed. */
const PROCESS_GRACE_MS = 60_000;

export function missingLauncher(path: string): GkRuntimeError {
  return new GkRuntimeError("GK8007", `no usable GPU: gpu_launcher is not built (looked for ${path}); run \`npm run build:launcher\``);
}

/** The answer's JSON object, or the GkRuntimeError the process outcome amounts to. */
function answerOf(r: ProcessResult, path: string): { json: Record<string, unknown>; blobs: Buffer[] } {
  if (r.spawnError) {
    if (r.spawnError.code === "ENOENT") throw missingLauncher(path);
    throw launcherFailed(`cannot start ${path}: ${r.spawnError.message}`);
  }
  if (r.timedOut) throw launcherFailed(`gpu_launcher did not answer in time and was stopped`);
  if (r.stdout.length === 0) throw launcherFailed(`gpu_launcher gave no answer: it ${describeExit(r)}`);
  const { json, blobs } = parseAnswer(r.stdout);
  if (typeof json !== "object" || json === null) throw launcherFailed("gpu_launcher's answer is not a JSON object");
  const o = json as Record<string, unknown>;
  if (o.ok === false) {
    const info = parseLauncherError(o.error);
    if (!info) throw launcherFailed(`gpu_launcher reported a malformed error: ${r.stdout.toString("utf8", 0, 500)}`);
    throw fromLauncherError(info);
  }
  if (o.ok !== true) throw launcherFailed(`gpu_launcher's answer has no "ok": ${r.stdout.toString("utf8", 0, 200)}`);
  if (r.exitCode !== 0) throw launcherFailed(`gpu_launcher answered ok but ${describeExit(r)}`);
  return { json: o, blobs };
}

/**
 * The arrays of at least `min` bytes, laid out in a new shared file with their contents written:
 * an array sent with data and copied back is read from and written back to the same place.
 * Undefined when there are none, or no shared file can be had (everything goes as base64 then).
 */
function placeInFile(args: readonly KernelArg[], min: number, dir: string | undefined): { file: SharedFile; places: (ArgPlaces | undefined)[] } | undefined {
  const plan = new FilePlan(min);
  const slots = args.map((a) => {
    if (a.kind !== "array") return undefined;
    if ("data" in a) return plan.put(bytesOf(a.data));
    return a.copyBack ? plan.reserve(a.length * elemSize(a.elem)) : undefined;
  });
  if (!plan.wanted) return undefined;
  const file = SharedFile.create(dir);
  plan.commit(file);
  if (file === undefined) return undefined;
  const places = args.map((a, i): ArgPlaces | undefined => {
    const at = slots[i]?.at;
    if (at === undefined || a.kind !== "array") return undefined;
    return "data" in a ? (a.copyBack ? { data: at, back: at } : { data: at }) : { back: at };
  });
  if (!places.some((p) => p !== undefined)) {
    file.close();
    return undefined;
  }
  return { file, places };
}

/**
 * Runs one kernel in a fresh launcher process: uploads the arrays, launches, copies back the
 * arrays marked copyBack. Throws GkRuntimeError (GK8005–GK8012) on any failure.
 */
export async function launchOnce(opts: LaunchOnceOptions): Promise<LaunchResult> {
  opts.args.forEach((a, i) => checkHostArray(a, i));
  const path = launcherPath(opts);
  if (!existsSync(path)) throw missingLauncher(path);
  const argv = [
    ...(opts.device !== undefined ? ["--device", String(opts.device)] : []),
    ...(opts.check ? ["--check"] : []),
    opts.module,
    opts.kernel,
    ...opts.grid.map(String),
    ...opts.block.map(String),
  ];
  const shared = placeInFile(opts.args, opts.sharedFileMinBytes ?? DEFAULT_SHARED_MIN_BYTES, opts.sharedFileDir);
  try {
    const input = requestChunks(opts.args, opts, shared?.places);
    const r = await runProcess(path, argv, input, {
      env: opts.env,
      timeoutMs: opts.timeoutMs !== undefined ? opts.timeoutMs * Math.max(1, opts.repeat ?? 1) + PROCESS_GRACE_MS : undefined,
      fds: shared ? [shared.file.fd] : [],
    });
    const { json, blobs } = answerOf(r, path);
    const outputs = new Map<number, AnyTypedArray>();
    for (const o of Array.isArray(json.outputs) ? (json.outputs as unknown[]) : []) {
      const { index, elem, b64, copyBackTo, bytes } = o as { index: number; elem: ScalarName; b64?: string; copyBackTo?: { offset?: unknown }; bytes?: unknown };
      const arg = opts.args[index];
      const blob = typeof b64 === "string" ? blobs[Number(b64.slice(1))] : undefined;
      const at = shared?.places[index]?.back;
      const inFile = blob === undefined && at !== undefined && copyBackTo?.offset === at && typeof bytes === "number";
      if (!arg || arg.kind !== "array" || arg.elem !== elem || (blob === undefined && !inFile)) {
        throw launcherFailed(`gpu_launcher returned an output for argument ${index} that the request did not have`);
      }
      const into = opts.copyBackInPlace && "data" in arg ? arg.data : undefined;
      outputs.set(index, blob !== undefined
        ? deliver(elem, blob.length, (t) => t.set(blob), into)
        : deliver(elem, bytes as number, (t) => shared!.file.readInto(at!, t), into));
    }
    const scalarBits = Array.isArray(json.scalars)
      ? new Map((json.scalars as { index: number; bits: string }[]).map((s) => [s.index, BigInt(s.bits)]))
      : undefined;
    return { outputs, timing: parseTiming(json.timing), check: json.check === true, ...(scalarBits ? { scalarBits } : {}) };
  } finally {
    shared?.file.close();
  }
}

let devicesMemo: Promise<DevicesResult> | undefined;

/**
 * The GPUs the launcher can use, or why there are none. Memoized for the process when called
 * without options (options name another launcher or environment, so those calls always run it).
 */
export function listDevices(opts?: LauncherOptions): Promise<DevicesResult> {
  if (opts !== undefined) return queryDevices(opts);
  devicesMemo ??= queryDevices({});
  return devicesMemo;
}

async function queryDevices(opts: LauncherOptions): Promise<DevicesResult> {
  const path = launcherPath(opts);
  if (!existsSync(path)) await buildDeferredNativeParts();
  if (!existsSync(path)) return { ok: false, reason: "no-launcher", message: missingLauncher(path).diagnostic.message };
  const r = await runProcess(path, ["--devices"], [], { env: opts.env, timeoutMs: PROCESS_GRACE_MS });
  try {
    const { json } = answerOf(r, path);
    return { ok: true, devices: json.devices as DeviceInfo[], driverVersion: json.driverVersion as number };
  } catch (e) {
    if (!(e instanceof GkRuntimeError)) throw e;
    const code = e.launcher?.code;
    const reason =
      code === "NO_CUDA_DRIVER" || code === "DRIVER_TOO_OLD" ? "no-driver" :
      code === "NO_DEVICE" ? "no-devices" :
      e.code === "GK8007" ? "no-launcher" : "launcher-failed";
    return { ok: false, reason, message: e.diagnostic.message };
  }
}
