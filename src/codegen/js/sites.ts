/**
 * Sites: the places in a kernel where a run can fail or suspend (array accesses, integer
 * divisions, loops, barriers, warp operations, calls of functions that contain barriers or
 * warp operations). Generated code
 * names a site by its number; the number leads back to the IR node, its `.gk` span and what
 * the message needs to say.
 */
import type { Span } from "../../diagnostics/source.js";
import type { ArrayVar, AtomicOp, ValueVar, WarpOp } from "../../ir/nodes.js";
import type { ArrayType, ScalarType } from "../../ir/types.js";

interface SiteBase {
  /** The IR function the site is in (a kernel or a device_fn). */
  readonly fn: string;
  readonly span: Span;
}

export type Site = SiteBase &
  (
    | { readonly kind: "access"; readonly access: "read" | "write"; readonly array: ArrayVar }
    /** An index of an array field of a struct value (`p.taps[i]`). */
    | { readonly kind: "field"; readonly type: ArrayType }
    /** A read or write of an `inout`/`out` parameter, through its reference. */
    | { readonly kind: "ref"; readonly access: "read" | "write"; readonly param: ValueVar }
    /** A reference to an array element made at a call, for `param` of `callee`. */
    | { readonly kind: "elemRef"; readonly array: ArrayVar; readonly param: string; readonly callee: string }
    /** A view of `array` made at a call, for `param` of `callee`; a view of a view is of the first view's array. */
    | { readonly kind: "view"; readonly array: ArrayVar; readonly param: string; readonly callee: string }
    | { readonly kind: "atomic"; readonly op: AtomicOp; readonly builtin: string; readonly array: ArrayVar }
    | { readonly kind: "division"; readonly op: "div" | "rem"; readonly type: ScalarType }
    | { readonly kind: "loop" }
    | { readonly kind: "barrier" }
    | { readonly kind: "warp"; readonly op: WarpOp }
    | { readonly kind: "call"; readonly callee: string }
  );

/** The sites of one compiled kernel, numbered in the order the code generator meets them. */
export class SiteTable {
  private readonly list: Site[] = [];

  add(site: Site): number {
    this.list.push(site);
    return this.list.length - 1;
  }

  get(n: number): Site | undefined {
    return this.list[n];
  }

  get size(): number {
    return this.list.length;
  }
}
