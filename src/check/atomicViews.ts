/**
 * Views as atomics' targets (spec: language.md, "Views"). A device function may update the
 * elements of its `view<T>` parameter atomically (`atomicAdd(v, i, 1)`: histogram256's per-warp
 * sub-histograms, a row of a 2-D shared array passed as `view(hist[w], 0)`), so long as the
 * view is of global or shared memory, where atomics are: a view of a local array is refused
 * at the call that makes it (GK3017). A view parameter passed on to a function that updates
 * its own view parameter atomically counts as updated, so the rule reaches every call that
 * makes such a view, however deep the atomic is.
 */
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import type { Function } from "../ir/nodes.js";
import { memorySpace } from "../ir/types.js";
import { visit } from "../ir/walk.js";

/** For each function, the positions of its view parameters whose elements it (or a callee it passes them to) updates atomically. */
function atomicViewParams(fns: ReadonlyMap<string, Function>): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const f of fns.values()) out.set(f.name, new Set());
  const paramIndex = (f: Function, id: number) => f.params.findIndex((p) => p.kind === "arrayVar" && p.id === id && p.type.kind === "view");
  // Until nothing changes: a callee's atomic view parameter makes the caller's view parameter passed to it one.
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of fns.values()) {
      const mine = out.get(f.name)!;
      const note = (id: number) => {
        const k = paramIndex(f, id);
        if (k >= 0 && !mine.has(k)) {
          mine.add(k);
          changed = true;
        }
      };
      visit(f.body, {
        expr: (e) => {
          if (e.kind === "atomic") note(e.array.id);
          if (e.kind !== "call") return;
          const theirs = out.get(e.callee);
          e.args.forEach((a, k) => {
            if (a.kind === "viewArg" && theirs?.has(k)) note(a.array.id);
          });
        },
      });
    }
  }
  return out;
}

/** Reports each call that passes a view of local memory to a view parameter its callee updates atomically. */
export function checkAtomicViews(functions: readonly Function[], log: DiagnosticLog): void {
  const fns = new Map(functions.map((f) => [f.name, f]));
  const atomic = atomicViewParams(fns);
  for (const f of functions) {
    visit(f.body, {
      expr: (e) => {
        if (e.kind !== "call") return;
        const callee = fns.get(e.callee);
        const theirs = atomic.get(e.callee);
        if (!callee || !theirs?.size) return;
        e.args.forEach((a, k) => {
          if (a.kind !== "viewArg" || !theirs.has(k)) return;
          const space = memorySpace(a.array.type);
          if (space === "global" || space === "shared" || space === "any") return;
          const param = callee.params[k]!.name;
          log.error("GK3017", a.span, `${callee.name.replace(/\$.*/, "")}() updates its view '${param}' atomically, which works on global and shared memory, but '${a.array.name}' is ${space === "local" ? "a local array, private to its thread" : "constant memory"}: pass a view of a global or shared array`);
        });
      },
    });
  }
}
