/**
 * GPU arrays: data that stays on a device between launches (CuPy's arrays, TypeGPU's
 * buffers). Made by a device (`gpu.array(data)`, `gpu.zeros("f32", n)`, `gpu.zeros("f32x4",
 * n)`, `gpu.zeros(mod.structs.Particle, n)`), passed to kernels wherever a TypedArray is
 * accepted, read back only when asked (`await a.read()`). Each is typed by its element type
 * (arrayElems.ts): a `GpuArray<"f32">` is accepted only for `global<f32>`, a
 * `GpuArray<"f32x4">` for `global<f32x4>`.
 *
 * `a.view(offset, length)` is a GPU array of `length` elements of `a` from element `offset`,
 * sharing its memory (an offset in elements, so always aligned for the element type). fill()
 * and copyFrom() run on the device, queued in order with launches (device.ts); copies between
 * overlapping ranges (an array and its view) copy as if through a temporary (memmove).
 *
 * Lifetime is explicit: `free()` (or `using`, `Symbol.dispose`), with a finalizer as a safety
 * net for arrays dropped without it. Using an array after free() is GK8016 (a view, after the
 * array it views was freed, too); after its GPU context was lost (a faulting kernel) or its
 * device closed, GK8017; both name the array. On the simulator an array is a TypedArray in
 * host memory, with the same rules.
 */
import { packStructs, unpackStructs } from "../structs.js";
import { GPU_ARRAY } from "../aliasing.js";
import { GkRuntimeError } from "../errors.js";
import { TYPED_ARRAY, type TypedArrayFor } from "../../ir/values.js";
import type { ScalarName, StructType } from "../../ir/types.js";
import { elementBytes, layoutOf, sameElems, type ArrayElem, type ElemName, type ElemValue, type ElementsOf, type Layout, type LanesOf } from "./arrayElems.js";
import type { Memory } from "./engine.js";

export type { ArrayElem, ElemName, ElementsOf, ElemValue, LanesOf, VectorName } from "./arrayElems.js";

/** @internal Where an array's elements are: a TypedArray of its lanes (simulator), or device memory (a view's: its part of the array it views). */
export type ArrayStore = { readonly kind: "host"; readonly data: TypedArrayFor<ScalarName> } | { readonly kind: "device"; readonly mem: Memory };

/** @internal What an array asks of its device (GpuDevice, device.ts, has these members). */
export interface ArrayOwner {
  readonly name: string;
  readArray(a: GpuArray, into: Uint8Array, byteOffset: number): Promise<void>;
  writeArray(a: GpuArray, data: Uint8Array, byteOffset: number): Promise<void>;
  /** Sets `count` elements from byte `byteOffset` to `pattern` (one element's bytes), on the device. */
  fillArray(a: GpuArray, pattern: Uint8Array, byteOffset: number, count: number): Promise<void>;
  /** Copies `bytes` bytes between arrays on the device; `overlap` when they share some (memmove). */
  copyArray(dst: GpuArray, dstOffset: number, src: GpuArray, srcOffset: number, bytes: number, overlap: boolean): Promise<void>;
  /** The store of a view: `bytes` bytes of `store` from byte `byteOffset`. */
  viewStore(store: ArrayStore, byteOffset: number, bytes: number): ArrayStore;
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

/** Frees the memory of arrays collected without free(). */
const finalizer = new FinalizationRegistry<{ owner: ArrayOwner; store: ArrayStore }>(({ owner, store }) => owner.freeStore(store));

export class GpuArray<E extends ArrayElem = ArrayElem> {
  readonly [GPU_ARRAY] = true as const;
  readonly byteLength: number;
  /** @internal */ store: ArrayStore | undefined;
  /** @internal The queue whose launches last used the array: reads and writes follow its work. */
  lastQueue: unknown;
  /** @internal How the elements lie in memory. */
  readonly layout: Layout;
  /** The array this one is a view of (the first made, for a view of a view); undefined for an array of its own. */
  readonly base: GpuArray<E> | undefined;
  /** Where the view starts in `base`, in elements (0 for an array of its own). */
  readonly offset: number;
  private freedAt = false;

  /** @internal Made by a device (`gpu.array(data)`, `gpu.zeros(elem, length)`) or by view(). */
  constructor(
    /** @internal */ readonly owner: ArrayOwner,
    readonly elem: E,
    readonly length: number,
    store: ArrayStore,
    readonly label: string | undefined,
    view?: { readonly base: GpuArray<E>; readonly offset: number },
  ) {
    this.layout = layoutOf(elem)!;
    this.byteLength = length * this.layout.size;
    this.store = store;
    this.base = view?.base;
    this.offset = view?.offset ?? 0;
    // A view frees nothing: it keeps its base (and so its memory) alive while it lives.
    if (view === undefined) finalizer.register(this, { owner, store }, this);
  }

  /** `GPU array 'x' (f32[1024])`, `a GPU array (f32x4[8])`; a view: `elements 8 to 15 of GPU array 'x' (f32[1024])`. */
  describe(): string {
    if (this.base) return `${this.length === 0 ? `no elements (a view at element ${this.offset})` : `elements ${this.offset} to ${this.offset + this.length - 1}`} of ${this.base.describe()}`;
    return this.label !== undefined ? `GPU array '${this.label}' (${this.layout.name}[${this.length}])` : `a GPU array (${this.layout.name}[${this.length}])`;
  }

  toString(): string {
    const elem = typeof this.elem === "string" ? `"${this.elem}"` : this.layout.name;
    return `GpuArray<${elem}>[${this.length}]${this.label !== undefined ? ` '${this.label}'` : ""}${this.base ? ` (a view of ${this.base.toString()} from element ${this.offset})` : ""}`;
  }

  /** True once free() was called (on a view: on it, or on the array it views). */
  get freed(): boolean {
    return this.freedAt || (this.base?.freedAt ?? false);
  }

  /** @internal The array's store, or the error of an array that cannot be used (GK8016, GK8017); `use` says what it was used for. */
  live(use: string | (() => string)): ArrayStore {
    const root = this.base ?? this;
    const freed = this.freedAt || root.freedAt || root.store === undefined;
    const lost = freed || this.store === undefined ? undefined : this.owner.lostWhy(this);
    if (!freed && this.store !== undefined && lost === undefined) return this.store;
    const what = typeof use === "string" ? use : use();
    if (lost === undefined) {
      const whose = this.base && !this.freedAt ? `, after the array it views was freed` : " after free()";
      throw new GkRuntimeError("GK8016", `${this.describe()} was used${whose} (${what}); make a new array`);
    }
    throw new GkRuntimeError("GK8017", `${this.describe()} can no longer be used (${what}): ${lost}; its contents are gone, make it again`, { contextLost: true });
  }

  /**
   * A GPU array of `length` elements of this one from element `offset` (default: to the end),
   * sharing its memory: kernels, read(), write(), fill() and copyFrom() on it see and change
   * those elements of this array. Like a TypedArray's `subarray(offset, offset + length)`, but
   * checked: a range past the end is an error (GK8005), not clamped, and there are no negative
   * indices. Freeing the array it views makes it unusable (GK8016); free() of a view frees no
   * memory. The offset is in elements, so a view is aligned as its element type needs.
   */
  view(offset: number, length?: number): GpuArray<E> {
    const store = this.live("view");
    const bad = (x: unknown) => typeof x !== "number" || !Number.isSafeInteger(x) || x < 0;
    if (bad(offset) || offset > this.length) throw new GkRuntimeError("GK8005", `view(offset, length) of ${this.describe()}: offset takes an integer from 0 to ${this.length}, got ${describeValue(offset)}`);
    const n = length ?? this.length - offset;
    if (bad(n)) throw new GkRuntimeError("GK8005", `view(offset, length) of ${this.describe()}: length takes a non-negative integer, got ${describeValue(length)}`);
    if (offset + n > this.length) {
      throw new GkRuntimeError("GK8005", `view(offset, length) of ${this.describe()}: offset ${offset} and length ${n} reach element ${offset + n - 1}, past its last (${this.length - 1})`);
    }
    const root = (this.base ?? this) as GpuArray<E>;
    const s = this.owner.viewStore(store, offset * this.layout.size, n * this.layout.size);
    return new GpuArray<E>(this.owner, this.elem, n, s, undefined, { base: root, offset: this.offset + offset });
  }

  /** @internal The bytes of memory the array covers: its base array (itself, for an array of its own) and the range in it. */
  span(): { readonly root: GpuArray; readonly lo: number; readonly hi: number } {
    const size = this.layout.size;
    return { root: (this.base ?? this) as GpuArray, lo: this.offset * size, hi: (this.offset + this.length) * size };
  }

  /**
   * Copies the array back to the host, after the work queued before that writes it: into a new
   * TypedArray of its lanes (4 per f32x4 or f32x3; a struct array: plain objects), or into
   * `into` (the TypedArray of its lanes, of their number; a struct array's: a Uint8Array of its bytes).
   */
  read(): Promise<ElementsOf<E>>;
  read(into: LanesOf<E>): Promise<LanesOf<E>>;
  async read(into?: LanesOf<E>): Promise<ElementsOf<E> | LanesOf<E>> {
    this.live("read");
    const l = this.layout;
    const Ctor = TYPED_ARRAY[l.lane];
    const lanes = this.length * l.per;
    if (into !== undefined && (!(into instanceof Ctor) || (into as Uint8Array).length !== lanes)) {
      throw new GkRuntimeError("GK8005", `read(into) of ${this.describe()} takes a ${Ctor.name} of length ${lanes}, got ${describeValue(into)}`);
    }
    const out = (into ?? new Ctor(lanes)) as Uint8Array;
    await this.owner.readArray(this as GpuArray, new Uint8Array(out.buffer, out.byteOffset, out.byteLength), 0);
    if (into === undefined && l.type.kind === "struct") return unpackStructs(l.type, out) as ElementsOf<E>;
    return out as unknown as LanesOf<E>;
  }

  /**
   * Copies `data` into the array from element `offset`, after the work queued before: the
   * TypedArray of its lanes (a whole number of elements), or, for a struct array, plain
   * objects or their bytes.
   */
  async write(data: LanesOf<E> | (E extends StructType ? readonly ElemValue<E>[] | ArrayBuffer : never), offset = 0): Promise<void> {
    this.live("write");
    const l = this.layout;
    const bytes = this.bytesOf(data, "write()");
    if (!Number.isSafeInteger(offset) || offset < 0 || offset * l.size + bytes.byteLength > this.byteLength) {
      throw new GkRuntimeError("GK8005", `write() of ${bytes.byteLength / l.size} elements at offset ${offset} does not fit ${this.describe()}`);
    }
    await this.owner.writeArray(this as GpuArray, bytes, offset * l.size);
  }

  /** `data` as bytes of whole elements, or GK8005 saying what `call` takes. */
  private bytesOf(data: unknown, call: string): Uint8Array {
    const l = this.layout;
    const Ctor = TYPED_ARRAY[l.lane];
    if (l.type.kind === "struct") {
      if (Array.isArray(data)) {
        try {
          return new Uint8Array(packStructs(l.type, data));
        } catch (e) {
          throw new GkRuntimeError("GK8005", `${call} to ${this.describe()}: ${(e as Error).message}`);
        }
      }
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : undefined;
      if (bytes === undefined || bytes.byteLength % l.size !== 0) {
        throw new GkRuntimeError("GK8005", `${call} to ${this.describe()} takes ${l.name} objects, or the bytes of a whole number of them (${l.size} each), got ${describeValue(data)}`);
      }
      return bytes;
    }
    if (!(data instanceof Ctor)) throw new GkRuntimeError("GK8005", `${call} to ${this.describe()} takes a ${Ctor.name}, got ${describeValue(data)}`);
    const a = data as Uint8Array;
    if (a.length % l.per !== 0) throw new GkRuntimeError("GK8005", `${call} to ${this.describe()} takes whole ${l.name} elements (${l.per} lanes each), got ${describeValue(data)}`);
    return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  }

  /**
   * Sets elements `start` to `end` (default: all) to `value` (a number, a bigint for i64 and
   * u64, a boolean for bool, f16 and bf16 rounded to the type; a vector's lanes as an array; a
   * struct's object), on the device: queued after the work queued before on every queue, and
   * before later launches (the promise resolves once it is queued).
   */
  async fill(value: ElemValue<E>, start = 0, end = this.length): Promise<void> {
    this.live("fill");
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end > this.length || start > end) {
      throw new GkRuntimeError("GK8005", `fill() of elements ${start} to ${end} does not fit ${this.describe()}`);
    }
    const pattern = elementBytes(this.layout, value);
    if (!(pattern instanceof Uint8Array)) throw new GkRuntimeError("GK8005", `fill() of ${this.describe()}${pattern.at ? `, at ${pattern.at},` : ""} takes ${pattern.want}, got ${describeValue(pattern.got)}`);
    if (end > start) await this.owner.fillArray(this as GpuArray, pattern, start * this.layout.size, end - start);
  }

  /**
   * Copies `length` elements (default: all of `src` from `srcOffset`) of `src`, a GPU array of
   * the same element type and device, into this array from element `offset`, on the device:
   * queued after the work queued before on every queue, and before later launches. Ranges that
   * overlap (an array and a view of it, or the array itself) copy as if through a temporary.
   */
  async copyFrom(src: GpuArray<E>, opts: { readonly srcOffset?: number; readonly offset?: number; readonly length?: number } = {}): Promise<void> {
    this.live("copyFrom");
    if (!(src instanceof GpuArray)) throw new GkRuntimeError("GK8005", `copyFrom() into ${this.describe()} takes a GPU array, got ${describeValue(src)}`);
    src.live(() => `copyFrom() into ${this.describe()}`);
    if (src.owner !== this.owner) throw new GkRuntimeError("GK8005", `copyFrom(): ${src.describe()} belongs to ${src.owner.name}, ${this.describe()} to ${this.owner.name}`);
    if (!sameElems(src.layout, this.layout)) throw new GkRuntimeError("GK8005", `copyFrom(): ${src.describe()} does not hold ${this.layout.name} elements like ${this.describe()}`);
    const srcOffset = opts.srcOffset ?? 0;
    const offset = opts.offset ?? 0;
    const length = opts.length ?? src.length - srcOffset;
    const fits = (x: number) => Number.isSafeInteger(x) && x >= 0;
    if (!fits(srcOffset) || !fits(offset) || !fits(length) || srcOffset + length > src.length || offset + length > this.length) {
      throw new GkRuntimeError("GK8005", `copyFrom(): ${length} elements from element ${srcOffset} of ${src.describe()} to element ${offset} of ${this.describe()} do not fit`);
    }
    const size = this.layout.size;
    const bytes = length * size;
    if (bytes === 0) return;
    const [d, s] = [this.span(), src.span()];
    const at = d.lo + offset * size;
    const from = s.lo + srcOffset * size;
    if (d.root === s.root && at === from) return; // onto itself: nothing changes
    const overlap = d.root === s.root && at < from + bytes && from < at + bytes;
    await this.owner.copyArray(this as GpuArray, offset * size, src as GpuArray, srcOffset * size, bytes, overlap);
  }

  /**
   * Frees the array's memory (after the work queued before that uses it). Using it afterwards,
   * or a view of it, is GK8016; a second free() does nothing. free() of a view frees no memory
   * (the array it views owns it): the view alone can no longer be used.
   */
  free(): void {
    if (this.freedAt) return;
    this.freedAt = true;
    if (this.base) return;
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
  if (Array.isArray(v)) return `an array of ${v.length} element${v.length === 1 ? "" : "s"}`;
  if (typeof v === "object") return `a ${(v as object).constructor?.name ?? "object"}`;
  return `${typeof v} ${String(v)}`;
}
