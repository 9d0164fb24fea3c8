/** Runtime errors from the launcher, carried as Diagnostics with a GK8xxx code. */
import { error, type Diagnostic, type DiagnosticCode, type RelatedNote } from "../../diagnostics/index.js";
import type { LauncherErrorInfo } from "./types.js";

export class GkRuntimeError extends Error {
  override readonly name = "GkRuntimeError";
  readonly diagnostic: Diagnostic;
  /** The launcher's own error, when the launcher reported one. */
  readonly launcher: LauncherErrorInfo | undefined;
  /** The GPU context was lost (a sticky CUDA error or a timed-out kernel): session handles from before are gone. */
  readonly contextLost: boolean;

  constructor(code: DiagnosticCode, message: string, opts: { launcher?: LauncherErrorInfo; notes?: RelatedNote[]; contextLost?: boolean } = {}) {
    super(`${code}: ${message}`);
    this.diagnostic = error(code, undefined, message, opts.notes ?? []);
    this.launcher = opts.launcher;
    this.contextLost = opts.contextLost ?? false;
  }

  get code(): DiagnosticCode {
    return this.diagnostic.code;
  }
  /** e.g. "CUDA_ERROR_ILLEGAL_ADDRESS". */
  get cudaError(): string | undefined {
    return this.launcher?.cudaError;
  }
  /** The CUDA Driver API call that failed, e.g. "cuEventSynchronize". */
  get call(): string | undefined {
    return this.launcher?.call;
  }
  /** request, init, module_load, alloc, h2d, launch, kernel, d2h, cleanup, serve or io. */
  get phase(): string | undefined {
    return this.launcher?.phase;
  }
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
  return new GkRuntimeError(diagnosticCodeFor(info), info.message, { launcher: info, notes, contextLost: lost });
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
  return {
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
