/**
 * The per-function state of emission: C++ names of variables, and the temporaries and labels
 * the backend invents, numbered in emission order so the output is deterministic. Internal
 * names start with `gk_`, a prefix no user name keeps (src/codegen/cuda/names.ts).
 */
import type { Expr, Function, ValueVar } from "../../ir/nodes.js";
import type { ValueType } from "../../ir/types.js";
import type { TypeNames } from "./types.js";
import { invariant } from "../../util.js";
import type { ExprContext } from "./expr.js";
import { CUDA } from "./settings.js";

const TEMP_IDS = -(2 ** 30);

export class FunctionScope implements ExprContext {
  private readonly names: Map<number, string>;
  private readonly pending: ValueVar[][] = [];
  private temps = 0;
  private labels = 0;

  /** `names`: the function's variables' C++ names by IR id; `constants`: the module's constant arrays'. */
  constructor(
    names: ReadonlyMap<number, string>,
    private readonly constants: ReadonlyMap<number, string>,
    readonly functionName: (irName: string) => string,
    readonly functions: ReadonlyMap<string, Function>,
    readonly types: TypeNames,
    /** Variables a call may change through a reference (effects.ts). */
    readonly refTargets: ReadonlySet<number> = new Set(),
    readonly volatileLoads: ReadonlySet<Expr> = new Set(),
    /** The module is built with -ftz=true (`@flushToZero;`). */
    readonly flushToZero = false,
  ) {
    this.names = new Map(names);
  }

  /** Parts of loop conditions computed once before their loop (analysis.ts, `hoistedBounds`), set as each loop is emitted. */
  readonly hoistedValues = new Map<Expr, string>();

  readonly name = (v: { readonly id: number }): string => {
    const n = this.names.get(v.id) ?? this.constants.get(v.id);
    invariant(n !== undefined, `no C++ name for variable #${v.id}`);
    return n;
  };

  readonly temp = (type: ValueType): ValueVar => {
    const open = this.pending[this.pending.length - 1];
    invariant(open, "a temporary outside a statement");
    this.temps++;
    // Temporaries take ids from -2^30 down, which the IR never uses (its module-level constant arrays count down from -1).
    const v: ValueVar = { kind: "valueVar", id: TEMP_IDS - this.temps, name: `${CUDA.internalPrefix}t${this.temps}`, type, mutable: true, span: { file: "", start: 0, end: 0 } };
    this.names.set(v.id, v.name);
    open.push(v);
    return v;
  };

  /** A fresh label for `continue` in a loop that cannot use C++'s own. */
  continueLabel(): string {
    return `${CUDA.internalPrefix}continue_${++this.labels}`;
  }

  /** Runs `f`, returning what it made and the temporaries it asked for (to declare before it). */
  collect<T>(f: () => T): { value: T; temps: ValueVar[] } {
    this.pending.push([]);
    try {
      const value = f();
      return { value, temps: this.pending[this.pending.length - 1]! };
    } finally {
      this.pending.pop();
    }
  }
}
