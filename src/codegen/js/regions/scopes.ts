/**
 * Where each barrier point sits in the region tree, and what lives across it. A local (scalar
 * or local array) in scope at a barrier point lives across that barrier: each thread keeps it
 * in per-thread storage, written when the thread stops at the barrier and read back when the
 * next region resumes it (emit.ts writes and reads only those a region uses).
 */
import type { ArrayVar, ValueVar } from "../../../ir/nodes.js";
import { invariant } from "../../../util.js";
import type { RStmt } from "./tree.js";

export type Local = ValueVar | ArrayVar;

/** Which list of a statement a path goes on in. */
export type Part = "block" | "then" | "else" | "init" | "body" | "step" | "inline";

/** One step of the path to a barrier point: statement `index` of `list`; `part` says which of its lists the path goes on in (null: the barrier itself). */
export interface PathStep {
  readonly list: readonly RStmt[];
  readonly index: number;
  readonly part: Part | null;
}

export interface Scopes {
  /** Per barrier point, the locals in scope there, outermost first. */
  readonly at: ReadonlyMap<number, readonly Local[]>;
  /** Per barrier point, the path to it from the kernel's body. */
  readonly paths: ReadonlyMap<number, readonly PathStep[]>;
  /** Every local in scope at some barrier point, by id. */
  readonly crossing: ReadonlyMap<number, Local>;
}

/** `base`: what is in scope from the kernel's start (the parameters the kernel assigns, which are per thread). */
export function scopesOf(body: readonly RStmt[], base: readonly Local[]): Scopes {
  const at = new Map<number, readonly Local[]>();
  const paths = new Map<number, readonly PathStep[]>();
  const crossing = new Map<number, Local>();

  const visit = (list: readonly RStmt[], outer: readonly Local[], path: readonly PathStep[]): Local[] => {
    const scope = [...outer];
    const into = (i: number, part: Part, inner: readonly RStmt[], s: readonly Local[]) => visit(inner, s, [...path, { list, index: i, part }]);
    list.forEach((s, i) => {
      switch (s.kind) {
        case "plain":
          if (s.stmt.kind === "let") scope.push(s.stmt.var);
          if (s.stmt.kind === "localArray") scope.push(s.stmt.array);
          return;
        case "barrier":
          invariant(!at.has(s.point), `barrier point ${s.point} twice in the region tree`);
          at.set(s.point, [...scope]);
          paths.set(s.point, [...path, { list, index: i, part: null }]);
          for (const l of scope) crossing.set(l.id, l);
          return;
        case "block":
          into(i, "block", s.body, scope);
          return;
        case "if":
          into(i, "then", s.then, scope);
          into(i, "else", s.else, scope);
          return;
        case "loop": {
          const inLoop = into(i, "init", s.init, scope);
          into(i, "body", s.body, inLoop);
          into(i, "step", s.step, inLoop);
          return;
        }
        case "inline":
          into(i, "inline", s.body, scope);
          return;
      }
    });
    return scope;
  };
  visit(body, base, []);
  return { at, paths, crossing };
}
