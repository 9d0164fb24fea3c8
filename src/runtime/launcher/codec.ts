/**
 * The one-shot wire format: kernel arguments to request JSON, and answers back to TypedArrays.
 * Large arrays travel in a shared file (shared.ts) and the JSON only says where; the others as
 * base64 written and read in chunks of a few megabytes, so that no array ever becomes one
 * JavaScript string (V8 caps strings near 512 MiB).
 */
import { TYPED_ARRAY, holdsElem } from "../../ir/values.js";
import { invalidArgs, launcherFailed } from "./errors.js";
import { SHARED_FD } from "./shared.js";
import type { ConstantArg, KernelArg, LaunchTiming, ScalarName, ScalarValue } from "./types.js";
import type { AnyTypedArray } from "../../ir/values.js";

const B64_IN_CHUNK = 3 * (1 << 20); // bytes per encoded chunk (a multiple of 3: no padding inside)
const B64_OUT_CHUNK = 4 * (1 << 20); // characters per decoded chunk (a multiple of 4)

export function elemSize(elem: ScalarName): number {
  return TYPED_ARRAY[elem].BYTES_PER_ELEMENT;
}

/** The bytes of a TypedArray, without copying. */
export function bytesOf(a: AnyTypedArray): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** A fresh TypedArray of `elem` and `byteLength` bytes, filled by `fill`. */
export function typedFilled(elem: ScalarName, byteLength: number, fill: (bytes: Uint8Array) => void): AnyTypedArray {
  const size = elemSize(elem);
  if (byteLength % size !== 0) {
    throw launcherFailed(`the launcher sent ${byteLength} bytes for an array of ${elem}, not a multiple of ${size}`);
  }
  const ab = new ArrayBuffer(byteLength);
  fill(new Uint8Array(ab));
  return new TYPED_ARRAY[elem](ab);
}

/**
 * An array the launcher sent back, `byteLength` bytes written by `fill`: into `into` (the
 * caller's own TypedArray, for copyBackInPlace) or into a fresh TypedArray of `elem`.
 */
export function deliver(elem: ScalarName, byteLength: number, fill: (bytes: Uint8Array) => void, into?: AnyTypedArray): AnyTypedArray {
  if (into === undefined) return typedFilled(elem, byteLength, fill);
  if (into.byteLength !== byteLength) throw launcherFailed(`the launcher sent ${byteLength} bytes for an array of ${into.byteLength} bytes`);
  fill(new Uint8Array(into.buffer, into.byteOffset, into.byteLength));
  return into;
}

/** A TypedArray of `elem` holding a copy of `bytes` (fresh and aligned). */
export function typedFromBytes(elem: ScalarName, bytes: Uint8Array): AnyTypedArray {
  const size = elemSize(elem);
  if (bytes.byteLength % size !== 0) {
    throw launcherFailed(`the launcher sent ${bytes.byteLength} bytes for an array of ${elem}, not a multiple of ${size}`);
  }
  const ab = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(ab).set(bytes);
  return new TYPED_ARRAY[elem](ab);
}

/**
 * A scalar as the protocol's JSON value: numbers as JSON numbers (exact: JavaScript prints the
 * shortest text that reads back as the same double), bigints as decimal strings, and the values
 * JSON cannot spell as "NaN", "Infinity", "-Infinity" and "-0". Range and type are checked
 * by the launcher, so the client and the launcher never disagree about what is valid.
 */
export function scalarWire(type: ScalarName, value: ScalarValue, where: string): number | string | boolean {
  if (typeof value === "boolean") {
    if (type !== "bool") throw invalidArgs(`${where}: a boolean is not a ${type} value`);
    return value;
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "number") throw invalidArgs(`${where}: expected a number, bigint or boolean, got ${typeof value}`);
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Object.is(value, -0)) return "-0";
  return value;
}

/**
 * Checks what only the client can know: that each TypedArray is the one for its element type
 * (a Uint8Array for bool and u8, a Uint16Array of bits for f16 and bf16 as for u16).
 */
export function checkHostArray(arg: KernelArg, index: number): void {
  if (arg.kind !== "array") return;
  if (!Object.hasOwn(TYPED_ARRAY, arg.elem)) throw invalidArgs(`argument ${index}: unknown element type ${JSON.stringify(arg.elem)}`);
  if ("data" in arg) {
    if (!holdsElem(arg.data, arg.elem)) {
      const want = TYPED_ARRAY[arg.elem].name;
      throw invalidArgs(`argument ${index}: an array of ${arg.elem} must be a ${want}, got ${(arg.data as unknown as object)?.constructor?.name ?? typeof arg.data}`);
    }
  } else if (!Number.isSafeInteger(arg.length) || arg.length < 0) {
    throw invalidArgs(`argument ${index}: length must be a non-negative integer, got ${String(arg.length)}`);
  }
}

function* base64Chunks(bytes: Buffer): Generator<string> {
  for (let i = 0; i < bytes.length; i += B64_IN_CHUNK) yield bytes.subarray(i, i + B64_IN_CHUNK).toString("base64");
}

/** Where an array argument lies in the shared file: `data` its contents, `back` where it is copied back to. */
export interface ArgPlaces {
  readonly data?: number;
  readonly back?: number;
}

const fileRef = (offset: number) => `{"fd":${SHARED_FD},"offset":${offset}}`;

/** The one-shot request, as a sequence of pieces to stream to the launcher's stdin. */
export function* requestChunks(
  args: readonly KernelArg[],
  opts: { sharedBytes?: number; repeat?: number; timeoutMs?: number; constants?: readonly ConstantArg[] },
  places: readonly (ArgPlaces | undefined)[] = [],
): Generator<string> {
  yield '{"args":[';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const sep = i > 0 ? "," : "";
    const p = places[i];
    if (a.kind === "scalar") {
      yield `${sep}${JSON.stringify({ type: a.type, value: scalarWire(a.type, a.value, `argument ${i}`) })}`;
    } else if (p !== undefined) {
      const length = "data" in a ? a.data.length : a.length;
      yield `${sep}{"type":"array","elem":${JSON.stringify(a.elem)},"copyBack":${a.copyBack},"length":${length}`;
      if (p.data !== undefined) yield `,"file":${fileRef(p.data)}`;
      else if ("data" in a) {
        yield ',"b64":"';
        yield* base64Chunks(bytesOf(a.data));
        yield '"';
      }
      yield p.back !== undefined ? `,"copyBackTo":${fileRef(p.back)}}` : "}";
    } else if ("data" in a) {
      yield `${sep}{"type":"array","elem":${JSON.stringify(a.elem)},"copyBack":${a.copyBack},"b64":"`;
      yield* base64Chunks(bytesOf(a.data));
      yield '"}';
    } else {
      yield `${sep}{"type":"array","elem":${JSON.stringify(a.elem)},"copyBack":${a.copyBack},"length":${a.length}}`;
    }
  }
  yield "]";
  if (opts.sharedBytes !== undefined) yield `,"sharedBytes":${JSON.stringify(opts.sharedBytes)}`;
  if (opts.repeat !== undefined) yield `,"repeat":${JSON.stringify(opts.repeat)}`;
  if (opts.timeoutMs !== undefined) yield `,"timeoutMs":${JSON.stringify(opts.timeoutMs)}`;
  if (opts.constants?.length) yield `,"constants":${JSON.stringify(constantsWire(opts.constants))}`;
  yield "}";
}

/** The launch request's `constants`: each variable's symbol, element type and bytes in base64. */
export function constantsWire(constants: readonly ConstantArg[]): { name: string; elem: string; b64: string }[] {
  return constants.map((c) => ({ name: c.name, elem: c.elem, b64: Buffer.from(bytesOf(c.data)).toString("base64") }));
}

/**
 * Parses a one-shot answer. Every `"b64":"…"` value is cut out of the text before JSON.parse
 * (replaced by `"#k"`) and decoded straight from the bytes, so the text that is parsed stays
 * small. The launcher's strings escape every quote, so `"b64":"` appears only as that key.
 */
export function parseAnswer(stdout: Buffer): { json: unknown; blobs: Buffer[] } {
  const key = Buffer.from('"b64":"', "latin1");
  const parts: string[] = [];
  const blobs: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const at = stdout.indexOf(key, pos);
    if (at < 0) break;
    const start = at + key.length;
    const end = stdout.indexOf(0x22, start);
    if (end < 0) throw launcherFailed("the launcher's answer ends inside a base64 string");
    parts.push(stdout.toString("utf8", pos, start), `#${blobs.length}`);
    blobs.push(decodeBase64(stdout, start, end));
    pos = end;
  }
  parts.push(stdout.toString("utf8", pos));
  try {
    return { json: JSON.parse(parts.join("")), blobs };
  } catch {
    throw launcherFailed(`the launcher's answer is not JSON: ${stdout.toString("utf8", 0, 200)}`);
  }
}

function decodeBase64(src: Buffer, start: number, end: number): Buffer {
  const n = end - start;
  if (n % 4 !== 0) throw launcherFailed("the launcher sent base64 of a length that is not a multiple of 4");
  let pad = 0;
  if (n > 0 && src[end - 1] === 0x3d) pad++;
  if (n > 1 && src[end - 2] === 0x3d) pad++;
  const out = Buffer.from(new ArrayBuffer((n / 4) * 3 - pad));
  let written = 0;
  for (let i = start; i < end; i += B64_OUT_CHUNK) {
    written += out.write(src.toString("latin1", i, Math.min(end, i + B64_OUT_CHUNK)), written, "base64");
  }
  if (written !== out.length) throw launcherFailed("the launcher sent invalid base64");
  return out;
}

const TIMING_KEYS = [
  "initMs", "moduleLoadMs", "allocMs", "h2dMs", "kernelMs", "kernelMinMs", "kernelMedianMs", "launches", "d2hMs", "totalMs",
] as const;

export function parseTiming(x: unknown): LaunchTiming {
  const o = (typeof x === "object" && x !== null ? x : {}) as Record<string, unknown>;
  const t: Record<string, number> = {};
  for (const k of TIMING_KEYS) {
    const v = o[k];
    if (typeof v !== "number") throw launcherFailed(`the launcher's answer lacks timing.${k}`);
    t[k] = v;
  }
  return t as unknown as LaunchTiming;
}
