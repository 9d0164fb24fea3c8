/**
 * Instances asked for from outside the program, by name and argument values (the API's
 * `mod.reduce.with({ T: "f32", BLOCK: 256 })`, gk/testing's `"reduce<f32, 256>"`): made like
 * those of launch statements. Their problems are diagnostics at the generic kernel's name.
 */
import type { DiagnosticLog } from "../diagnostics/diagnostic.js";
import { coerceScalar } from "../ir/values.js";
import type { Binding } from "./context.js";
import type { FileScope } from "./fileScope.js";
import { paramText } from "./genericParams.js";
import type { Generics } from "./generics.js";
import { didYouMean } from "../diagnostics/didYouMean.js";
import { invariant } from "../util.js";

/** An instance of a generic kernel of the entry file: its arguments in parameter order, a type by its name, a constant as a number, bigint or boolean. */
export interface InstanceRequest {
  readonly kernel: string;
  readonly args: readonly (string | number | bigint | boolean)[];
}

export function requestInstance(scope: FileScope, generics: Generics, r: InstanceRequest, log: DiagnosticLog): void {
  const spelled = `${r.kernel}<${r.args.map(String).join(", ")}>`;
  const sym = scope.lookup(r.kernel);
  if (sym?.kind === "poisoned") return;
  if (sym?.kind !== "generic" || sym.of !== "kernel") {
    const what = sym?.kind === "kernel" ? `'${r.kernel}' is not generic` : `there is no generic kernel '${r.kernel}'${didYouMean(r.kernel, scope.names())}`;
    log.error("GK3030", sym?.span, `cannot make ${spelled}: ${what}`);
    return;
  }
  const list = `<${sym.params.map(paramText).join(", ")}>`;
  if (r.args.length !== sym.params.length) {
    log.error("GK3030", sym.span, `cannot make ${spelled}: '${r.kernel}' takes ${sym.params.length} generic argument${sym.params.length === 1 ? "" : "s"} ${list}, but ${r.args.length} ${r.args.length === 1 ? "was" : "were"} given`);
    return;
  }
  const bindings = new Map<string, Binding>();
  for (const [i, p] of sym.params.entries()) {
    const a = r.args[i]!;
    if (p.kind === "type") {
      const t = typeof a === "string" ? p.allowed.find((x) => x.name === a) : undefined;
      if (!t) {
        log.error("GK3031", sym.span, `cannot make ${spelled}: ${p.name} is one of ${p.allowed.map((x) => x.name).join(", ")}, not ${typeof a === "string" ? a : `the ${typeof a} ${String(a)}`}`);
        return;
      }
      bindings.set(p.name, { kind: "type", type: t });
      continue;
    }
    // Kernels take no function parameters (genericParams refuses them).
    invariant(p.kind === "const", "a generic kernel with a function parameter");
    const c = coerceScalar(p.type, a);
    if (!c.ok) {
      const why = c.why === "range" ? `${c.integer} is out of its range` : `it takes ${p.type.name === "bool" ? "true or false" : "an integer"}, not ${typeof a === "string" ? `'${a}'` : String(a)}`;
      log.error("GK3031", sym.span, `cannot make ${spelled}: ${p.name} is ${p.type.name}: ${why}`);
      return;
    }
    bindings.set(p.name, { kind: "const", type: p.type, value: c.value });
  }
  generics.request(sym, bindings, { what: "requested from outside the program (by the API)" });
}
