/**
 * GPU arrays: data that stays on a device between launches (CuPy's arrays, TypeGPU's
 * buffers). Made by a device (`gpu.array(data)`, `gpu.zeros("f32", n)`), passed to kernels
 * wherever a TypedArray is accepted, read back only when asked (`await a.read()`). Each is
 * typed by its element type: a `GpuArray<"f32">` is accepted only for `global<f32>`.
 *
 * Lifetime is explicit: `free()` (or `using`, `Symbol.dispose`), with a finalizer as a safety
 * net for arrays dropped without it. Using an array after free() is GK8016; after its GPU
 * context was lost (a faulting kernel) or its device closed, GK8017; both name the array.
 * On the simulator an array is a TypedArray in host memory, with the same rules.
 */
import type { ScalarName } from "../../ir/types.js";
import { scalarType } from "../../ir/types.js";
import { coerceScalar, storedValue, TYPED_ARRAY, type AnyTypedArray, type TypedArrayFor } from "../../ir/values.js";
import { GPU_ARRAY } from "../aliasing.js";
import { GkRuntimeError } from "../errors.js";
import type { Memory } from "./engine.js";

/** An element type: a key of the one table of TypedArrays (src/ir/values.ts). */
export type ElemName = ScalarName & keyof typeof TYPED_ARRAY;

/** @internal Where an array's elements are: a TypedArray (simulator), or device memory. */
export type ArrayStore = { readonly kind: "host"; readonly data: TypedArrayFor<ScalarName> } | { readonly kind: "device"; readonly mem: Memory };

/** @internal What an array asks of its device (GpuDevice, device.ts, has these members). */
export interface ArrayOwner {
  readonly name: string;
  readArray(a: GpuArray, into: Uint8Array, byteOffset: number): Promise<void>;
  writeArray(a: GpuArray, data: Uint8Array, byteOffset: number): Promise<void>;
  freeStore(store: ArrayStore): void;
  /** Why the array's memory is gone (its context was lost, or the device closed), if it is. */
  lostWhy(a: GpuArray): string | undefined;
}

export interface ArrayOptions {
  /** A name for the array in errors. */
  readonly label?: string;
  /**
   * `array(data)`'s element type where the TypedArray does not say: a Uint8Array is bool
   * unless this says u8, and a Uint16Array u16 unless it says f16 or bf16 (their bits).
   */
  readonly elem?: ElemName;
}

/** The most bytes fill() and copyFrom() hold in host memory at once. */
const CHUNK_BYTES = 16 * 1024 * 1024;

/** Frees the memory of arrays collected without free(). */
const finalizer = new FinalizationRegistry<{ owner: ArrayOwner; store: ArrayStore }>(({ owner, store }) => owner.freeStore(store));

export class GpuArray<E extends ElemName = ElemName> {
  readonly [GPU_ARRAY] = true as const;
  readonly byteLength: number;
  /** @internal */ store: ArrayStore | undefined;
  /** @internal The queue whose launches last used the array: reads and writes follow its work. */
  lastQueue: unknown;
  private freedAt = false;

  /** @internal Made by a device: `gpu.array(data)` or `gpu.zeros(elem, length)`. */
  constructor(
    /** @internal */ readonly owner: ArrayOwner,
    readonly elem: E,
    readonly length: number,
    store: ArrayStore,
    readonly label: string | undefined,
  ) {
    this.byteLength = length * TYPED_ARRAY[elem].BYTES_PER_ELEMENT;
    this.store = store;
    finalizer.register(this, { owner, store }, this);
  }

  /** `GPU array 'x' (f32[1024])`, or `a GPU array (f32[1024])` without a label. */
  describe(): string {
    return this.label !== undefined ? `GPU array '${this.label}' (${this.elem}[${this.length}])` : `a GPU array (${this.elem}[${this.length}])`;
  }

  toString(): string {
    return `GpuArray<"${this.elem}">[${this.length}]${this.label !== undefined ? ` '${this.label}'` : ""}`;
  }

  /** True once free() was called. */
  get freed(): boolean {
    return this.freedAt;
  }

  /** @internal The array's store, or the error of an array that cannot be used (GK8016, GK8017); `use` says what it was used for. */
  live(use: string | (() => string)): ArrayStore {
    const lost = this.freedAt || this.store === undefined ? undefined : this.owner.lostWhy(this);
    if (this.store !== undefined && !this.freedAt && lost === undefined) return this.store;
    const what = typeof use === "string" ? use : use();
    if (lost === undefined) throw new GkRuntimeError("GK8016", `${this.describe()} was used after free() (${what}); make a new array`);
    throw new GkRuntimeError("GK8017", `${this.describe()} can no longer be used (${what}): ${lost}; its contents are gone, make it again`, { contextLost: true });
  }

  /**
   * Copies the array back to the host, after the work queued before that writes it: into a
   * new TypedArray, or into `into` (of the same type and length).
   */
  async read(into?: TypedArrayFor<E>): Promise<TypedArrayFor<E>> {
    this.live("read");
    const Ctor = TYPED_ARRAY[this.elem];
    if (into !== undefined && (!(into instanceof Ctor) || into.length !== this.length)) {
      throw new GkRuntimeError("GK8005", `read(into) of ${this.describe()} takes a ${Ctor.name} of length ${this.length}, got ${describeValue(into)}`);
    }
    const out = (into ?? new Ctor(this.length)) as TypedArrayFor<E>;
    await this.owner.readArray(this as GpuArray, new Uint8Array(out.buffer, out.byteOffset, out.byteLength), 0);
    return out;
  }

  /** Copies `data` (a TypedArray of the element type) into the array from element `offset`, after the work queued before. */
  async write(data: TypedArrayFor<E>, offset = 0): Promise<void> {
    this.live("write");
    const Ctor = TYPED_ARRAY[this.elem];
    if (!(data instanceof Ctor)) throw new GkRuntimeError("GK8005", `write() to ${this.describe()} takes a ${Ctor.name}, got ${describeValue(data)}`);
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + data.length > this.length) {
      throw new GkRuntimeError("GK8005", `write() of ${data.length} elements at offset ${offset} does not fit ${this.describe()}`);
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    await this.owner.writeArray(this as GpuArray, bytes, offset * Ctor.BYTES_PER_ELEMENT);
  }

  /**
   * Sets elements `start` to `end` (default: all) to `value` (a number, a bigint for i64 and
   * u64, a boolean for bool; f16 and bf16 rounded to the type), after the work queued before.
   * The elements travel from host memory, as write() sends them (a fill on the device is left
   * to do).
   */
  async fill(value: number | bigint | boolean, start = 0, end = this.length): Promise<void> {
    this.live("fill");
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end > this.length || start > end) {
      throw new GkRuntimeError("GK8005", `fill() of elements ${start} to ${end} does not fit ${this.describe()}`);
    }
    const c = coerceScalar(scalarType(this.elem), value);
    if (!c.ok || (typeof value === "bigint" && typeof c.value !== "bigint")) {
      throw new GkRuntimeError("GK8005", `fill() of ${this.describe()} takes ${this.elem === "bool" ? "true or false" : `a value of ${this.elem}`}, got ${describeValue(value)}`);
    }
    const Ctor = TYPED_ARRAY[this.elem];
    const stored = storedValue(this.elem, c.value);
    for (let at = start; at < end; ) {
      const n = Math.min(end - at, Math.floor(CHUNK_BYTES / Ctor.BYTES_PER_ELEMENT));
      const chunk = new Ctor(n) as AnyTypedArray;
      (chunk as { fill(v: number | bigint): unknown }).fill(stored);
      await this.owner.writeArray(this as GpuArray, new Uint8Array(chunk.buffer, 0, chunk.byteLength), at * Ctor.BYTES_PER_ELEMENT);
      at += n;
    }
  }

  /**
   * Copies `length` elements (default: all of `src` from `srcOffset`) of `src`, a GPU array of
   * the same element type and device, into this array from element `offset`, after the work
   * queued before on both. The elements travel through host memory, in chunks (a copy on the
   * device is left to do); copying an array onto itself is refused.
   */
  async copyFrom(src: GpuArray<E>, opts: { readonly srcOffset?: number; readonly offset?: number; readonly length?: number } = {}): Promise<void> {
    this.live("copyFrom");
    if (!(src instanceof GpuArray)) throw new GkRuntimeError("GK8005", `copyFrom() into ${this.describe()} takes a GPU array, got ${describeValue(src)}`);
    src.live(() => `copyFrom() into ${this.describe()}`);
    if (src.owner !== this.owner) throw new GkRuntimeError("GK8005", `copyFrom(): ${src.describe()} belongs to ${src.owner.name}, ${this.describe()} to ${this.owner.name}`);
    if (src.elem !== this.elem && TYPED_ARRAY[src.elem] !== TYPED_ARRAY[this.elem]) {
      throw new GkRuntimeError("GK8005", `copyFrom(): ${src.describe()} does not hold ${this.elem} elements like ${this.describe()}`);
    }
    if ((src as GpuArray) === (this as GpuArray)) throw new GkRuntimeError("GK8005", `copyFrom(): ${this.describe()} onto itself`);
    const srcOffset = opts.srcOffset ?? 0;
    const offset = opts.offset ?? 0;
    const length = opts.length ?? src.length - srcOffset;
    const fits = (x: number) => Number.isSafeInteger(x) && x >= 0;
    if (!fits(srcOffset) || !fits(offset) || !fits(length) || srcOffset + length > src.length || offset + length > this.length) {
      throw new GkRuntimeError("GK8005", `copyFrom(): ${length} elements from element ${srcOffset} of ${src.describe()} to element ${offset} of ${this.describe()} do not fit`);
    }
    const size = TYPED_ARRAY[this.elem].BYTES_PER_ELEMENT;
    const chunk = new Uint8Array(Math.min(length * size, CHUNK_BYTES - (CHUNK_BYTES % size)));
    for (let done = 0; done < length * size; ) {
      const bytes = Math.min(chunk.length, length * size - done);
      const part = chunk.subarray(0, bytes);
      await this.owner.readArray(src as GpuArray, part, srcOffset * size + done);
      await this.owner.writeArray(this as GpuArray, part, offset * size + done);
      done += bytes;
    }
  }

  /** Frees the array's memory (after the work queued before that uses it). Using it afterwards is GK8016; a second free() does nothing. */
  free(): void {
    if (this.freedAt) return;
    this.freedAt = true;
    finalizer.unregister(this);
    const store = this.store;
    this.store = undefined;
    if (store !== undefined && this.owner.lostWhy(this) === undefined) this.owner.freeStore(store);
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (v instanceof GpuArray) return v.toString();
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of length ${(v as unknown as { length?: number }).length ?? "?"}`;
  if (typeof v === "object") return `a ${(v as object).constructor?.name ?? "object"}`;
  return `${typeof v} ${String(v)}`;
}
