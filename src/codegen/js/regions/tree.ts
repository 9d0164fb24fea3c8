/**
 * The kernel as the barrier path's regions see it (lower.ts builds it from the IR): statements
 * without a barrier stay IR (`plain`); the statements that reach a barrier are spelled out, with
 * every device_fn that reaches a barrier inlined at its call, so each barrier in the tree is one
 * barrier point: one place in the source and one chain of calls that leads to it, which is the
 * barrier's identity in the language (a barrier in a device_fn called from two places is two).
 */
import type { Span } from "../../../diagnostics/source.js";
import type { ArrayVar, Expr, Function, ValueVar, Stmt } from "../../../ir/nodes.js";

export type RStmt =
  /** An IR statement that reaches no barrier, run as the other paths run it. */
  | { readonly kind: "plain"; readonly stmt: Stmt }
  /** Barrier point `point` (1, 2, ...; see RegionTree.points). */
  | { readonly kind: "barrier"; readonly point: number; readonly span: Span }
  | { readonly kind: "block"; readonly body: readonly RStmt[] }
  | { readonly kind: "if"; readonly cond: Expr; readonly then: readonly RStmt[]; readonly else: readonly RStmt[] }
  /** The IR loop's shape (`LoopStmt`); a condition that called a barrier's device_fn has moved into the body or step. */
  | {
      readonly kind: "loop";
      readonly init: readonly RStmt[];
      readonly cond: Expr | null;
      readonly step: readonly RStmt[];
      readonly body: readonly RStmt[];
      readonly testFirst: boolean;
      readonly span: Span;
    }
  /**
   * The body of device_fn `fn` inlined at a call: its parameters and `ret` are locals declared
   * just before (with fresh ids); `return` assigns `ret` and leaves the block labelled `label`.
   */
  | { readonly kind: "inline"; readonly fn: Function; readonly label: string; readonly ret: ValueVar | null; readonly body: readonly RStmt[] };

export interface RegionTree {
  readonly body: readonly RStmt[];
  /** The identity of each barrier point, by number (`"c4.c9.b12"`, as the generator path yields it); index 0 is the kernel's start. */
  readonly points: readonly string[];
  /** The array parameters of inlined device_fns: each is the caller's array under the parameter's own name. */
  readonly aliases: readonly { readonly param: ArrayVar; readonly arg: ArrayVar }[];
}
