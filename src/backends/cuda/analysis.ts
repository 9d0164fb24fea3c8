/**
 * What the backend asks of a function body before it writes code: which variables are ever
 * read, whether a loop body continues. Traversal is the IR's one walker (src/ir/walk.ts).
 */
import type { Stmt } from "../../ir/nodes.js";
import { visit } from "../../ir/walk.js";
import { assertNever } from "../../util.js";

/** Ids of the variables and arrays a function body ever reads (array arguments count as reads). */
export function readVariables(body: readonly Stmt[]): Set<number> {
  const read = new Set<number>();
  visit(body, {
    expr: (e) => {
      if (e.kind === "var") read.add(e.var.id);
      else if (e.kind === "load" || e.kind === "atomic") read.add(e.array.id);
      else if (e.kind === "call") {
        for (const a of e.args) {
          if (a.kind === "arrayArg" || a.kind === "viewArg" || a.kind === "elemRef") read.add(a.array.id);
          else if (a.kind === "varRef") read.add(a.var.id);
        }
      }
    },
  });
  return read;
}

/** Whether these statements `continue` the loop they are in (not counting nested loops' own continues). */
export function continuesLoop(stmts: readonly Stmt[]): boolean {
  return stmts.some((s) => {
    switch (s.kind) {
      case "continue":
        return true;
      case "if":
        return continuesLoop(s.then) || continuesLoop(s.else);
      case "block":
        return continuesLoop(s.body);
      case "loop": // a nested loop's continue is its own
      case "let":
      case "localArray":
      case "assign":
      case "store":
      case "expr":
      case "break":
      case "return":
      case "barrier":
      case "fence":
        return false;
      default:
        return assertNever(s, "statement");
    }
  });
}
