/**
 * Paths into values (`p.pos.x`, `s.taps[i]`): the type each step leads to, and the steps
 * spelled as gk writes them. A path is a list of `PathStep`s (src/ir/nodes.ts) applied to a
 * value or to an element of an array.
 */
import type { PathStep } from "./nodes.js";
import { laneName, type ArrayType, type ValueType } from "./types.js";
import { invariant } from "../util.js";

/** The type one step leads to from a value (or array field) of type `t`. */
export function stepType(t: ValueType | ArrayType, step: PathStep): ValueType | ArrayType {
  switch (step.kind) {
    case "field":
      invariant(t.kind === "struct" && step.field < t.fields.length, `field ${step.field} of a ${t.kind}`);
      return t.fields[step.field]!.type;
    case "lane":
      invariant(t.kind === "vector" && step.lane < t.lanes, `lane ${step.lane} of a ${t.kind}`);
      return t.elem;
    case "elem":
      invariant(t.kind === "array" && step.indices.length === t.dims.length, `element of a ${t.kind}`);
      return t.elem;
  }
}

/** The type a whole path leads to. */
export function pathType(t: ValueType | ArrayType, path: readonly PathStep[]): ValueType | ArrayType {
  return path.reduce(stepType, t);
}

/** `.pos.x`, `.taps[…]`: a path as gk spells it, each index written by `index`. */
export function pathText(t: ValueType | ArrayType, path: readonly PathStep[], index: (e: Extract<PathStep, { kind: "elem" }>["indices"][number]) => string): string {
  let out = "";
  let cur = t;
  for (const step of path) {
    switch (step.kind) {
      case "field":
        invariant(cur.kind === "struct", "a field step on a non-struct");
        out += `.${cur.fields[step.field]!.name}`;
        break;
      case "lane":
        out += `.${laneName(step.lane)}`;
        break;
      case "elem":
        out += step.indices.map((i) => `[${index(i)}]`).join("");
        break;
    }
    cur = stepType(cur, step);
  }
  return out;
}
