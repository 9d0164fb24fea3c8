/**
 * The gpu_launcher client: runs compiled kernels in a separate process (spec/launcher-protocol.md).
 *
 * - `listDevices()`: the GPUs, or why there are none.
 * - `launchOnce()`: one kernel, one process (also `check: true`, which validates and echoes without a GPU).
 * - `LauncherSession`: a persistent server for repeated launches, with buffers kept on the GPU.
 * Large arrays travel through a shared-memory file rather than the pipes (`sharedFileMinBytes`).
 * Failures are GkRuntimeError, carrying a GK8xxx Diagnostic and the launcher's structured error.
 */
export type {
  AnyTypedArray, ArrayDataArg, ArrayZerosArg, ConstantArg, DeviceInfo, DevicesResult, Dim3, HostArrayArg, KernelArg, LaunchOnceOptions,
  LaunchResult, LaunchTiming, LauncherErrorInfo, LauncherOptions, NoGpuReason, ScalarArg, ScalarName,
} from "./launcher/types.js";
export { GkRuntimeError } from "./errors.js";
export { diagnosticCodeFor } from "./launcher/errors.js";
export { launchOnce, listDevices } from "./launcher/oneshot.js";
export { launcherPath, packageRoot } from "./launcher/process.js";
export {
  LauncherSession, type BufferArg, type DeviceBuffer, type ModuleHandle, type SessionArg, type SessionLaunchOptions,
  type SessionOptions, type SessionRunOptions, type SessionTiming,
} from "./launcher/session.js";
