/** The names of a value's leaves as gk writes them (`.pos.y`, `.taps[2]`), for reports. */
import { elementCount, laneName, type ArrayType, type ValueType } from "../ir/types.js";

/** The path of leaf `k` (in `leaves(t)` order) of a value of type `t`: "" for a scalar, `.y` for a lane, `.pos.y` in a struct. */
export function pathOfLeaf(t: ValueType | ArrayType, k: number): string {
  return leafPaths(t)[k] ?? "";
}

function leafPaths(t: ValueType | ArrayType): string[] {
  switch (t.kind) {
    case "scalar":
      return [""];
    case "vector":
      return Array.from({ length: t.lanes }, (_, i) => `.${laneName(i)}`);
    case "struct":
      return t.fields.flatMap((f) => leafPaths(f.type).map((p) => `.${f.name}${p}`));
    case "array": {
      const inner = leafPaths(t.elem);
      const n = elementCount(t);
      const index = (i: number) => {
        const parts: number[] = [];
        let rest = i;
        for (let d = t.dims.length - 1; d >= 0; d--) {
          parts.unshift(rest % t.dims[d]!);
          rest = Math.floor(rest / t.dims[d]!);
        }
        return parts.map((x) => `[${x}]`).join("");
      };
      return Array.from({ length: n }, (_, i) => inner.map((p) => `${index(i)}${p}`)).flat();
    }
  }
}
