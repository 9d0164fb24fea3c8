/**
 * WGSL names for gk's names, chosen deterministically. A gk name that WGSL can declare
 * (reserved.ts) is kept; otherwise characters WGSL does not allow become `_xHH_`, runs of `_`
 * shrink to one, leading `_` go, a reserved word or the `gk_` prefix gets `u_` in front. A
 * name already taken gets `_1`, `_2`, ... Module-scope names (entry points, device functions,
 * structs, resource and workgroup variables) are unique in the module; a function's
 * parameters and locals are unique within it and avoid every module-scope name, so WGSL's
 * scoping never decides which variable an expression means.
 */
import { isSafeWgslIdentifier } from "./reserved.js";

export function safeWgslSpelling(name: string): string {
  if (isSafeWgslIdentifier(name)) return name;
  let s = [...name]
    .map((ch) => (/[A-Za-z0-9_]/.test(ch) ? ch : `_x${ch.codePointAt(0)!.toString(16)}_`))
    .join("")
    .replace(/_+/g, "_")
    .replace(/^_+/, "")
    .replace(/_+$/, "");
  if (s === "" || /^[0-9]/.test(s)) s = `v${s === "" ? "" : "_"}${s}`;
  if (!isSafeWgslIdentifier(s)) s = `u_${s}`;
  return s;
}

/** Hands out unique names; `outer` (names of the enclosing scope) is avoided without being copied. */
export class WgslNames {
  private readonly taken = new Set<string>();

  constructor(private readonly outer: ReadonlySet<string> = new Set()) {}

  claim(name: string): string {
    const base = safeWgslSpelling(name);
    let candidate = base;
    for (let k = 1; this.taken.has(candidate) || this.outer.has(candidate); k++) candidate = `${base}_${k}`;
    this.taken.add(candidate);
    return candidate;
  }

  /** The names claimed so far. */
  all(): ReadonlySet<string> {
    return this.taken;
  }
}
