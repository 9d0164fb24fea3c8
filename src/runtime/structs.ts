/**
 * Arrays of structs on the host: a kernel's `global<Node>` parameter takes the bytes of n Node
 * structs, laid out as spec/language.md ("Memory layout") says: each field at its offset
 * (`type.fields[i].offset`), `type.size` bytes per element, little-endian, bool one byte (0 or
 * 1), padding bytes unused. `packStructs` writes plain objects into such bytes, and
 * `unpackStructs` reads them back:
 *
 *   const Node = mod.structs.Node;                       // the layout, from the compiled module
 *   const nodes = packStructs(Node, [{ start: 0, edges: 2 }, { start: 2, edges: 1 }]);
 *   await mod.walk({ grid: 1, block: 64 }, { nodes, ... });
 *   unpackStructs(Node, nodes);                          // [{ start: 0, edges: 2 }, ...]
 *
 * A field of a vector type is an array of its lanes, of a struct type an object, of an array
 * type an array (nested by dimension, or flat); 64-bit integers are bigints. What users call is
 * lang/structs.ts's typed face of these.
 */
import { coerceValue, readValue, toHost, writeValue } from "../ir/composite.js";
import type { StructType } from "../ir/types.js";

/** Plain objects as the bytes of an array of structs of type `t` (a fresh ArrayBuffer); a TypeError names the first value that does not fit. Typed for users by lang/structs.ts. */
export function packStructs(t: StructType, objects: readonly unknown[]): ArrayBuffer {
  const buffer = new ArrayBuffer(objects.length * t.size);
  const view = new DataView(buffer);
  objects.forEach((o, i) => {
    const c = coerceValue(t, o, `[${i}]`);
    if (!c.ok) throw new TypeError(`packStructs(${t.name}): element ${c.at} must be ${c.want}, got ${describe(c.got)}`);
    writeValue(t, view, i * t.size, c.value);
  });
  return buffer;
}

/** The structs of type `t` in `data` (an ArrayBuffer or a view of one, of n × t.size bytes) as plain objects. Typed for users by lang/structs.ts. */
export function unpackStructs(t: StructType, data: ArrayBuffer | ArrayBufferView): unknown[] {
  const view = data instanceof ArrayBuffer ? new DataView(data) : new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.byteLength % t.size !== 0) throw new TypeError(`unpackStructs(${t.name}): ${view.byteLength} bytes are not a whole number of ${t.size}-byte structs`);
  return Array.from({ length: view.byteLength / t.size }, (_, i) => toHost(t, readValue(t, view, i * t.size)));
}

function describe(x: unknown): string {
  if (x === undefined) return "nothing";
  if (typeof x === "bigint") return `${x}n`;
  if (typeof x === "object") return x === null ? "null" : Array.isArray(x) ? "an array" : `a ${(x as object).constructor?.name ?? "object"}`;
  return `${typeof x} ${String(x)}`;
}
