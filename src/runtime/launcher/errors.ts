/** The launcher's errors as GkRuntimeErrors (src/runtime/errors.ts): its error codes mapped to GK8xxx diagnostics, with notes. */
import type { DiagnosticCode, RelatedNote } from "../../diagnostics/index.js";
import { GkRuntimeError } from "../errors.js";
import type { LauncherErrorInfo } from "./types.js";

/** 1536 → "1.5 KiB". */
export function bytesText(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

/** The diagnostic code for a launcher error code (spec: "Error codes"). */
export function diagnosticCodeFor(info: LauncherErrorInfo): DiagnosticCode {
  switch (info.code) {
    case "NO_CUDA_DRIVER":
    case "NO_DEVICE":
    case "DRIVER_TOO_OLD":
      return "GK8007";
    case "BAD_REQUEST":
    case "BAD_ARGS":
    case "TOO_LARGE":
    case "UNKNOWN_HANDLE":
      return "GK8005";
    case "BAD_LAUNCH_CONFIG":
      return "GK8010";
    case "MODULE_UNREADABLE":
      return "GK8011";
    case "KERNEL_TIMEOUT":
      return "GK8012";
    case "CUDA_ERROR":
      if (info.cudaError === "CUDA_ERROR_OUT_OF_MEMORY" && info.phase === "alloc") return "GK8018";
      return info.call === "cuModuleGetFunction" && info.cudaError === "CUDA_ERROR_NOT_FOUND" ? "GK8009" : "GK8006";
    default:
      return "GK8008";
  }
}

export function fromLauncherError(info: LauncherErrorInfo, contextLost = false): GkRuntimeError {
  const notes: RelatedNote[] = [];
  if (info.hint) notes.push({ message: info.hint });
  if (info.log) notes.push({ message: `driver log: ${info.log.trim()}` });
  if (info.call) notes.push({ message: `in ${info.call} (phase ${info.phase})` });
  const lost = contextLost || info.code === "KERNEL_TIMEOUT" || info.sticky === true;
  if (lost) notes.push({ message: "the GPU context was lost: buffers and modules loaded before this error are gone" });
  let message = info.message;
  if (info.launch) {
    const l = info.launch;
    const which = `launch ${l.seq} of kernel '${l.kernel}' on queue ${l.queue}`;
    message = l.certain ? `${which} failed: ${message}` : `${which} (the first on its queue not seen to finish) failed: ${message}`;
  }
  if (info.memory) {
    const m = info.memory;
    message = `out of GPU memory: ${bytesText(m.asked)} asked, ${bytesText(m.free)} free of ${bytesText(m.total)} (${info.cudaError ?? info.code} in ${info.call ?? info.phase})`;
  }
  return new GkRuntimeError(diagnosticCodeFor(info), message, { launcher: info, notes, contextLost: lost });
}

export function launcherFailed(message: string, notes: RelatedNote[] = []): GkRuntimeError {
  return new GkRuntimeError("GK8008", message, { notes });
}

export function invalidArgs(message: string): GkRuntimeError {
  return new GkRuntimeError("GK8005", message);
}

/** Reads a launcher error object defensively: a malformed one becomes a GK8008 message. */
export function parseLauncherError(x: unknown): LauncherErrorInfo | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Record<string, unknown>;
  if (typeof o.code !== "string" || typeof o.message !== "string") return undefined;
  const str = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
  const num = (k: string) => (typeof o[k] === "number" ? (o[k] as number) : undefined);
  const obj = (k: string) => (typeof o[k] === "object" && o[k] !== null ? (o[k] as Record<string, unknown>) : undefined);
  const l = obj("launch");
  const m = obj("memory");
  return {
    ...(l && typeof l.seq === "number" && typeof l.kernel === "string"
      ? { launch: { queue: Number(l.queue), seq: l.seq, kernel: l.kernel, certain: l.certain === true } }
      : {}),
    ...(m && typeof m.asked === "number" ? { memory: { asked: m.asked, free: Number(m.free), total: Number(m.total) } } : {}),
    code: o.code,
    message: o.message,
    phase: str("phase") ?? "unknown",
    call: str("call"),
    cudaError: str("cudaError"),
    cudaErrorNumber: num("cudaErrorNumber"),
    path: str("path"),
    offset: num("offset"),
    log: str("log"),
    hint: str("hint"),
    sticky: o.sticky === true,
  };
}
