/** The call graph: recursion is an error (GPU code has no growable stack); functions are ordered callees first. */
import type { DiagnosticLog } from "../../diagnostics/diagnostic.js";
import type { Span } from "../../diagnostics/source.js";
import type { Function } from "../nodes.js";

/**
 * Device functions the kernels reach, plus those declared in the entry file, callees
 * before callers. Reports every cycle once, at a call inside it.
 */
export function orderFunctions(
  functions: readonly Function[],
  kernels: readonly Function[],
  calls: ReadonlyMap<string, readonly { callee: string; span: Span }[]>,
  entryFile: string,
  log: DiagnosticLog,
): Function[] {
  const byName = new Map(functions.map((f) => [f.name, f]));
  const state = new Map<string, "active" | "done">();
  const out: Function[] = [];
  const stack: string[] = [];
  const reported = new Set<string>();

  const visit = (name: string): void => {
    const s = state.get(name);
    if (s === "done") return;
    if (s === "active") return;
    state.set(name, "active");
    stack.push(name);
    for (const c of calls.get(name) ?? []) {
      if (state.get(c.callee) === "active") {
        const cycle = [...stack.slice(stack.indexOf(c.callee)), c.callee];
        const key = [...cycle].sort().join(",");
        if (!reported.has(key)) {
          reported.add(key);
          const path = cycle.map((n) => `'${n}'`).join(" calls ");
          log.error("GK4002", c.span, `recursion: ${path}; GPU code in gk cannot recurse: rewrite it with a loop`);
        }
        continue;
      }
      visit(c.callee);
    }
    stack.pop();
    state.set(name, "done");
    const fn = byName.get(name);
    if (fn) out.push(fn);
  };

  for (const k of kernels) visit(k.name);
  for (const f of functions) if (f.file === entryFile) visit(f.name);
  return out;
}
