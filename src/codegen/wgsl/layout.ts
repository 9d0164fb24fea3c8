/**
 * What the WGSL backend hands a WebGPU runtime: the shader text and, per kernel, everything
 * needed to create the bind group layout, the compute pipeline and the bytes of the uniform
 * block, with no other knowledge of gk's IR. This file is the contract between the code
 * generator (src/codegen/wgsl) and the runtime; spec/wgsl.md says the same in words.
 *
 * `emitWgsl(m: Module, opts?: WgslOptions): WgslOutput` (index.ts) makes it from a module that
 * `legalize` passed for the WGSL target (target.ts): only i32, u32, f32 and bool scalars, so a
 * shader never needs a device feature (spec/wgsl.md says what is refused and why).
 *
 * One module, one shader: `source` holds every kernel as a `@compute` entry point. Each kernel
 * reads its resources from bind group 0 only:
 *
 *   - its value parameters (scalars, vectors, structs), flattened to scalars in leaf order (as
 *     CUDA passes them, spec/language.md "Kernel arguments"), one 4-byte slot each, in ONE
 *     uniform buffer (`uniform`), absent when the kernel has no value parameter;
 *   - each `global<T>` parameter: its own storage buffer (`read` for a readonly one,
 *     `read_write` otherwise), whose bytes are gk's memory layout of the elements
 *     (spec/language.md "Memory layout": C layout, a 3-lane vector takes the room of 4), the
 *     same bytes the CUDA path copies; the WGSL declarations are written to match it;
 *   - each module `constant` array the kernel reads (directly or through device functions):
 *     a read-only storage buffer of its elements, row-major, in gk's layout.
 *
 * Binding numbers are dense from 0 in this order: the uniform block (when present), then the
 * global parameters in parameter order, then the constant arrays in `constants` order.
 * Make the bind group layout from these entries (a `layout: "auto"` pipeline drops the
 * bindings a shader never uses, and a bind group with them would then not match it).
 *
 * Pipeline-overridable constants (`GPUProgrammableStage.constants`, keyed by name):
 *   - `workgroupSize.x/.y/.z`: the launch's block size (one pipeline per block size);
 *   - one per dynamic shared array: its length in elements for the launch.
 * Every override has a default (1 for sizes, 1 for lengths), so a pipeline that does not set
 * one is still valid; the runtime sets all of a kernel's.
 *
 * The grid is the dispatch: `dispatchWorkgroups(grid.x, grid.y, grid.z)`; `gridDim` is
 * WGSL's `num_workgroups`. Nothing reports errors back: out-of-bounds accesses, division by
 * zero and the like are what gk says they are on a GPU (spec/wgsl.md), so no error buffer.
 */
import type { ValueType } from "../../ir/types.js";

/** A scalar as it sits in one 4-byte slot of the uniform block. */
export type UniformScalar =
  /** little-endian two's complement */
  | "i32"
  /** little-endian */
  | "u32"
  /** IEEE binary32, little-endian */
  | "f32"
  /** a u32 slot holding 1 (true) or 0 (false) */
  | "bool";

/** One scalar of a value parameter: where it sits in the uniform block. */
export interface UniformLeaf {
  /** Byte offset in the uniform block: a multiple of 4. */
  readonly offset: number;
  readonly scalar: UniformScalar;
}

/**
 * A scalar, vector or struct kernel parameter: its scalars in leaf order (a vector's lanes in
 * order, a struct's fields in order and each field's leaves in turn, an array field's elements
 * row-major), each in its own 4-byte slot. The leaves of all value parameters are consecutive
 * in the block, parameter after parameter: the k-th leaf of the kernel is at offset 4k.
 */
export interface WgslValueParam {
  readonly kind: "value";
  /** The parameter's gk name. */
  readonly name: string;
  readonly type: ValueType;
  readonly leaves: readonly UniformLeaf[];
}

/** A `global<T>` parameter: one storage buffer. */
export interface WgslBufferParam {
  readonly kind: "buffer";
  /** The parameter's gk name. */
  readonly name: string;
  /** In bind group 0. */
  readonly binding: number;
  /** `read`: a `readonly global<T>` (`"read-only-storage"` in the bind group layout); `read_write`: `"storage"`. */
  readonly access: "read" | "read_write";
  /** The element type; the buffer holds elements of `elemBytes` each, in gk's memory layout. */
  readonly elem: ValueType;
  /** Bytes per element (gk's `byteSize(elem)`, the same as the WGSL array's stride). */
  readonly elemBytes: number;
}

export type WgslParam = WgslValueParam | WgslBufferParam;

/** A module `constant` array the kernel reads: one read-only storage buffer. */
export interface WgslConstant {
  /** Its gk name (`LaunchConstant.name`, `CudaOutput.constants`' key). */
  readonly name: string;
  readonly binding: number;
  /** Bytes of the whole array (elements × element bytes), the size the buffer must have at least. */
  readonly bytes: number;
}

/** A dynamic shared array (`shared buf: f32[];`): a workgroup array whose length is an override. */
export interface WgslDynamicShared {
  /** Its gk name. */
  readonly name: string;
  /** The override constant holding its length, in elements. */
  readonly override: string;
  readonly elemBytes: number;
}

/** One kernel of the shader. */
export interface WgslKernel {
  /** The `@compute` function's name in `source` (`GPUProgrammableStage.entryPoint`). */
  readonly entryPoint: string;
  /** The override constants `@workgroup_size` reads: the launch's block size on each axis. */
  readonly workgroupSize: { readonly x: string; readonly y: string; readonly z: string };
  /** Every IR kernel parameter, in order. */
  readonly params: readonly WgslParam[];
  /**
   * The uniform block of the value parameters: its binding and the bytes to allocate and
   * write (a multiple of 16, at least 16; slots past the last leaf are 0); null when the
   * kernel has no value parameter.
   */
  readonly uniform: { readonly binding: number; readonly bytes: number } | null;
  /** The `constant` arrays it reads, in binding order. */
  readonly constants: readonly WgslConstant[];
  /** Its dynamic shared arrays, in declaration order (the order of `Launch.sharedLengths`). */
  readonly dynamicShared: readonly WgslDynamicShared[];
  /**
   * Workgroup memory of its fixed-size shared arrays, in bytes, as WGSL lays them out; the
   * dynamic ones add `elemBytes × length` each (rounded up to 16 per array). A launch over
   * the device's `maxComputeWorkgroupStorageSize` fails pipeline creation: check it first.
   */
  readonly staticWorkgroupBytes: number;
}

export interface WgslOutput {
  /** The whole WGSL text, every kernel of the module in it. */
  readonly source: string;
  /** IR kernel name (`Function.name`, `reduce<f32, 256>` for an instance) → its description. */
  readonly kernels: ReadonlyMap<string, WgslKernel>;
}

export interface WgslOptions {
  /** gk's version, named in the header comment (omitted when not given). */
  readonly gkVersion?: string;
}
