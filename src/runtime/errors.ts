/**
 * The runtime's error: every failure of a launch, a device, an array or the launcher, whichever
 * engine or simulator it comes from, carried as a Diagnostic with a GK8xxx code (and, where the
 * launcher or the addon reported one, its structured error: the CUDA error, the call, the phase).
 */
import { error, type Diagnostic, type DiagnosticCode, type RelatedNote } from "../diagnostics/index.js";
import type { LauncherErrorInfo } from "./launcher/types.js";

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
  /** For a failure of queued work: the queue, the launch's number on it and the kernel's name. */
  get launch(): LauncherErrorInfo["launch"] {
    return this.launcher?.launch;
  }
}
