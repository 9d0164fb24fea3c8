/**
 * The call graph: recursion is an error (GPU code has no growable stack); functions are
 * ordered callees first.
 *
 * Recursion is found among definitions: an instance (`f<i32>`) counts as its generic
 * definition (`f`), so `f<0>` calling `f<1>` is `f` calling itself, and a generic definition
 * that calls itself is recursive whether or not it has instances.
 */
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { Span } from "../diagnostics/source.js";
import type { Function } from "../ir/nodes.js";

type Calls = ReadonlyMap<string, readonly { callee: string; span: Span }[]>;

/**
 * Device functions the kernels reach, plus those declared in the entry file, callees
 * before callers. Reports every cycle once, at a call inside it: cycles through the kernels,
 * the entry file's functions and the generic `definitions` (their calls are in `calls`
 * under their names).
 */
export function orderFunctions(
  functions: readonly Function[],
  kernels: readonly Function[],
  calls: Calls,
  entryFile: string,
  log: DiagnosticLog,
  definitions: readonly string[] = [],
): Function[] {
  const roots = [...kernels.map((k) => k.name), ...functions.filter((f) => f.file === entryFile).map((f) => f.name), ...definitions];
  reportCycles(calls, roots, log);

  const byName = new Map(functions.map((f) => [f.name, f]));
  const done = new Set<string>();
  const out: Function[] = [];
  const visit = (name: string): void => {
    if (done.has(name)) return;
    done.add(name);
    for (const c of calls.get(name) ?? []) visit(c.callee);
    const fn = byName.get(name);
    if (fn) out.push(fn);
  };
  for (const r of roots) visit(r);
  return out;
}

/** The generic definition an instance's name (`f<i32>`) belongs to; any other name itself. */
function definitionOf(name: string): string {
  const open = name.indexOf("<");
  return open < 0 ? name : name.slice(0, open);
}

/** The calls among definitions: each caller and callee as its definition. */
function definitionGraph(calls: Calls): Map<string, { callee: string; span: Span }[]> {
  const graph = new Map<string, { callee: string; span: Span }[]>();
  for (const [caller, cs] of calls) {
    const from = definitionOf(caller);
    let out = graph.get(from);
    if (!out) graph.set(from, (out = []));
    for (const c of cs) out.push({ callee: definitionOf(c.callee), span: c.span });
  }
  return graph;
}

function reportCycles(calls: Calls, roots: readonly string[], log: DiagnosticLog): void {
  const graph = definitionGraph(calls);
  const state = new Map<string, "active" | "done">();
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (name: string): void => {
    if (state.has(name)) return;
    state.set(name, "active");
    stack.push(name);
    for (const c of graph.get(name) ?? []) {
      if (state.get(c.callee) === "active") {
        const cycle = [...stack.slice(stack.indexOf(c.callee)), c.callee];
        const key = [...new Set(cycle)].sort().join(",");
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
  };
  for (const r of roots) visit(definitionOf(r));
}

/**
 * The generic definitions on a cycle of calls (see the file comment). Their instances are
 * not made: the cycle is an error of its own, and making them might never end.
 */
export function recursiveDefinitions(calls: Calls, definitions: readonly string[]): Set<string> {
  const graph = definitionGraph(calls);
  const onCycle = new Set<string>();
  for (const d of definitions) {
    const seen = new Set<string>();
    const stack = (graph.get(d) ?? []).map((c) => c.callee);
    while (stack.length) {
      const n = stack.pop()!;
      if (n === d) {
        onCycle.add(d);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(graph.get(n) ?? []).map((c) => c.callee));
    }
  }
  return onCycle;
}
