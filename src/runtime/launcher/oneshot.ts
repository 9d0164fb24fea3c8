/** One launcher process per call: `launchOnce` (one-shot and --check modes) and `listDevices` (--devices). */
import { existsSync } from "node:fs";
import { GkRuntimeError, fromLauncherError, launcherFailed, parseLauncherError } from "./errors.js";
import { checkArrayArg, parseAnswer, parseTiming, requestChunks, typedFromBytes } from "./codec.js";
import { describeExit, launcherPath, runProcess, type ProcessResult } from "./process.js";
import type { AnyTypedArray, DeviceInfo, DevicesResult, LaunchOnceOptions, LaunchResult, LauncherOptions, ScalarName } from "./types.js";

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
 * Runs one kernel in a fresh launcher process: uploads the arrays, launches, copies back the
 * arrays marked copyBack. Throws GkRuntimeError (GK8005–GK8012) on any failure.
 */
export async function launchOnce(opts: LaunchOnceOptions): Promise<LaunchResult> {
  opts.args.forEach((a, i) => checkArrayArg(a, i));
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
  const input = requestChunks(opts.args, opts);
  const r = await runProcess(path, argv, input, {
    env: opts.env,
    timeoutMs: opts.timeoutMs !== undefined ? opts.timeoutMs * Math.max(1, opts.repeat ?? 1) + PROCESS_GRACE_MS : undefined,
  });
  const { json, blobs } = answerOf(r, path);
  const outputs = new Map<number, AnyTypedArray>();
  for (const o of Array.isArray(json.outputs) ? (json.outputs as unknown[]) : []) {
    const { index, elem, b64 } = o as { index: number; elem: ScalarName; b64: string };
    const blob = blobs[Number(b64.slice(1))];
    const arg = opts.args[index];
    if (!blob || !arg || arg.kind !== "array" || arg.elem !== elem) {
      throw launcherFailed(`gpu_launcher returned an output for argument ${index} that the request did not have`);
    }
    outputs.set(index, typedFromBytes(elem, blob));
  }
  const scalarBits = Array.isArray(json.scalars)
    ? new Map((json.scalars as { index: number; bits: string }[]).map((s) => [s.index, BigInt(s.bits)]))
    : undefined;
  return { outputs, timing: parseTiming(json.timing), check: json.check === true, ...(scalarBits ? { scalarBits } : {}) };
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
