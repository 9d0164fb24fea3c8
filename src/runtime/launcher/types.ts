/** The launcher client's public types. The wire format they map to is spec/launcher-protocol.md. */
import type { ScalarName, ScalarValue } from "../../ir/types.js";
import type { AnyTypedArray } from "../../ir/values.js";
import type { Dim3 } from "../../ir/limits.js";

export type { AnyTypedArray, Dim3, ScalarName, ScalarValue };

/** A scalar kernel argument: boolean for bool, bigint (or a safe integer) for 64-bit integers, number otherwise. */
export interface ScalarArg {
  readonly kind: "scalar";
  readonly type: ScalarName;
  readonly value: ScalarValue;
}

/** An array argument sent with its contents. `data` must be the TypedArray of `elem` (Uint8Array for bool). */
export interface ArrayDataArg {
  readonly kind: "array";
  readonly elem: ScalarName;
  readonly data: AnyTypedArray;
  readonly copyBack: boolean;
}

/** An array argument of `length` zeros, allocated on the device without sending data. */
export interface ArrayZerosArg {
  readonly kind: "array";
  readonly elem: ScalarName;
  readonly length: number;
  readonly copyBack: boolean;
}

/** An array argument from the host: sent with its contents, or made of zeros on the GPU (a session's buffers already there are BufferArgs). */
export type HostArrayArg = ArrayDataArg | ArrayZerosArg;
export type KernelArg = ScalarArg | HostArrayArg;

/** The contents of a module's `__constant__` variable `name` (its symbol), filled before the launch; `data` the TypedArray of `elem`. */
export interface ConstantArg {
  readonly name: string;
  readonly elem: ScalarName;
  readonly data: AnyTypedArray;
}

/**
 * One launch, as every engine (src/runtime/device/engine.ts) and the launcher client (one-shot
 * and session) take it: the kernel (`K`: its symbol, or an engine's loaded kernel), the sizes of
 * its grid and blocks, its arguments (`A`: the scalars and arrays each of them takes), and what
 * goes with it: the bytes of dynamic shared memory, and the contents of the module's
 * `__constant__` variables, filled before it runs.
 */
export interface LaunchRecord<K, A> {
  readonly kernel: K;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly args: readonly A[];
  /** Dynamic shared memory in bytes (none when absent). */
  readonly sharedBytes?: number;
  /** The module's `__constant__` variables to fill before the launch (spec: "constants"). */
  readonly constants?: readonly ConstantArg[];
}

/** Where the launcher is and how it runs; every field is optional. */
export interface LauncherOptions {
  /** The gpu_launcher binary; default `$GK_LAUNCHER`, else `<package root>/build/gpu_launcher`. */
  readonly launcherPath?: string;
  /** Extra environment variables for the launcher process. */
  readonly env?: Readonly<Record<string, string>>;
  /** GPU index (`--device N`); default 0. */
  readonly device?: number;
  /**
   * Arrays of at least this many bytes travel through a shared-memory file rather than the
   * launcher's pipes (spec: "Shared files"); default 65536. `Infinity`: never.
   */
  readonly sharedFileMinBytes?: number;
  /** The folder for the shared-memory file (default /dev/shm, else the OS's temporary folder). The file never has a name there. */
  readonly sharedFileDir?: string;
  /**
   * Use the in-process addon's host helpers where it is built (default true; `GK_HOST_IO=0`
   * turns them off): answers are awaited without sleeping, and arrays are copied into the
   * mapped shared file by several threads. No GPU is touched in this process either way.
   */
  readonly hostIo?: boolean;
}

/** A one-shot launch: `kernel` is the kernel's extern "C" name. */
export interface LaunchOnceOptions extends LauncherOptions, LaunchRecord<string, KernelArg> {
  /** A `.ptx` or `.cubin` file. */
  readonly module: string;
  /** Launch this many times (on the same buffers) and report min and median kernel time. */
  readonly repeat?: number;
  /** Give up on a kernel that runs longer than this; the launcher process then ends (GK8012). */
  readonly timeoutMs?: number;
  /** Validate and echo without touching the driver (`--check`): outputs equal the inputs. */
  readonly check?: boolean;
  /**
   * Copy results back into the arguments' own TypedArrays (arrays sent with `data`), which
   * `outputs` then holds, rather than into new ones.
   */
  readonly copyBackInPlace?: boolean;
}

/** Milliseconds. kernelMs is the median of the launches, measured with CUDA events; the rest with a host clock. */
export interface LaunchTiming {
  readonly initMs: number;
  readonly moduleLoadMs: number;
  readonly allocMs: number;
  readonly h2dMs: number;
  readonly kernelMs: number;
  readonly kernelMinMs: number;
  readonly kernelMedianMs: number;
  readonly launches: number;
  readonly d2hMs: number;
  readonly totalMs: number;
}

export interface LaunchResult {
  /** The copied-back arrays by argument index, each the TypedArray of its element type. */
  readonly outputs: Map<number, AnyTypedArray>;
  readonly timing: LaunchTiming;
  /** True for a `--check` answer, which never reached a GPU. */
  readonly check: boolean;
  /** `--check` only: the exact bits each scalar argument was read as, by argument index. */
  readonly scalarBits?: Map<number, bigint>;
}

export interface DeviceInfo {
  readonly index: number;
  readonly name: string;
  readonly computeCapability: { readonly major: number; readonly minor: number };
  /** e.g. "sm_90", the nvcc `-arch` for this GPU. */
  readonly arch: string;
  readonly totalMemBytes: number;
  readonly multiprocessorCount: number;
  readonly maxThreadsPerBlock: number;
  readonly maxSharedBytesPerBlock: number;
  readonly maxSharedBytesPerBlockOptin: number;
  readonly driverVersion: number;
}

export type NoGpuReason = "no-launcher" | "no-driver" | "no-devices" | "launcher-failed";

export type DevicesResult =
  | { readonly ok: true; readonly devices: readonly DeviceInfo[]; readonly driverVersion: number }
  | { readonly ok: false; readonly reason: NoGpuReason; readonly message: string };

/** The launcher's structured error, as it sent it (spec: "Errors"). */
export interface LauncherErrorInfo {
  readonly code: string;
  readonly message: string;
  readonly phase: string;
  readonly call?: string;
  readonly cudaError?: string;
  readonly cudaErrorNumber?: number;
  readonly path?: string;
  readonly offset?: number;
  readonly log?: string;
  readonly hint?: string;
  readonly sticky?: boolean;
  /** A failure of queued work: the launch it is pinned on (`certain`: the GPU's markers show the launches before it finished). */
  readonly launch?: { readonly queue: number; readonly seq: number; readonly kernel: string; readonly certain: boolean };
  /** Out of memory: the bytes asked for, and the device's free and total bytes then. */
  readonly memory?: { readonly asked: number; readonly free: number; readonly total: number };
}
