/**
 * Planted data races (GenOptions.plantRace): statements put right after a generated kernel's
 * prologue (`tid`, `gid`, `o`; kernel.ts), where every thread runs them, that race by the
 * rule of spec/memory-model.md. The race detector must report each (GK8040) on the planted
 * array; the generated kernel around it is race-free by construction, so it must report
 * nothing else. A launch of one thread in one block cannot race: it gets none.
 *
 *   sharedReadAfterWrite   race_sh[tid] = gid;  if (tid > 0) { out_i32[o] = race_sh[tid - 1]; }
 *   sharedWriteAfterRead   race_sh[tid] = gid;  barrier();  out_i32[o] = race_sh[(tid + 1) % n];  race_sh[tid] = 0;
 *   sharedSameValue        race_sh[0] = 7;                                  (every thread: the same value)
 *   shuffleOrdersNothing   race_sh[tid] = gid;  out_i32[o + 1] = shflDown(gid, 1);  if (tid > 0) { ... race_sh[tid - 1] }
 *   globalThreads          out_i32[0] = tid;                                (threads of one block)
 *   globalBlocks           if (tid == 0) { out_i32[0] = out_i32[0] + 1; }   (threads of different blocks)
 *
 * `plantRace(p, { ordered: true })` plants the corrected version of the shared-memory kinds
 * instead — a barrier() between the accesses, one writer, a syncWarp() in place of the shuffle
 * (and only neighbours of the same warp read) — which must report nothing.
 */
import fc from "fast-check";
import type { Dim3 } from "../../ir/limits.js";
import { assign, bin, builtin, index, lit, nameRef, type Expr, type LValue, type Program, type Stmt } from "./ast.js";

export const RACE_KINDS = ["sharedReadAfterWrite", "sharedWriteAfterRead", "sharedSameValue", "shuffleOrdersNothing", "globalThreads", "globalBlocks"] as const;
export type RaceKind = (typeof RACE_KINDS)[number];

/** A planted race: its kind, and the element the report must name (`shared race_sh[`, `global out_i32[0]`). */
export interface PlantedRace {
  readonly kind: RaceKind;
  readonly element: string;
}

const SHARED = "race_sh";
const i32 = (name: string): Expr => nameRef("i32", name);
const n = (k: number): Expr => lit("i32", k);
const out = (idx: Expr): LValue => ({ name: "out_i32", t: "i32", idx: [idx] });
const shared = (idx: Expr): LValue => ({ name: SHARED, t: "i32", idx: [idx] });

/** The kinds a launch of this shape can have: those within a block need two threads, across blocks two blocks. */
export function raceKindsFor(grid: Dim3, block: Dim3): RaceKind[] {
  const threads = block[0] * block[1] * block[2];
  const blocks = grid[0] * grid[1] * grid[2];
  return RACE_KINDS.filter((k) => (k === "globalBlocks" ? blocks >= 2 : threads >= 2));
}

/** The kinds with a corrected version (`ordered`): those in shared memory. */
export const ORDERED_KINDS: readonly RaceKind[] = ["sharedReadAfterWrite", "sharedWriteAfterRead", "sharedSameValue", "shuffleOrdersNothing"];

/** The corrected version of a shared-memory kind: the same accesses, ordered. */
function ordered(kind: RaceKind, threads: number): Stmt[] {
  const decl: Stmt = { k: "shared", name: SHARED, t: "i32", dims: [threads] };
  const own = assign(shared(i32("tid")), "=", i32("gid"));
  const readLeft = (c: Expr): Stmt => ({ k: "if", c, then: [assign(out(i32("o")), "=", index("i32", SHARED, bin("i32", "-", i32("tid"), n(1))))], else: null });
  switch (kind) {
    case "sharedReadAfterWrite":
      return [decl, own, { k: "barrier" }, readLeft(bin("bool", ">", i32("tid"), n(0)))];
    case "sharedWriteAfterRead":
      return [
        decl,
        own,
        { k: "barrier" },
        assign(out(i32("o")), "=", index("i32", SHARED, bin("i32", "%", bin("i32", "+", i32("tid"), n(1)), n(threads)))),
        { k: "barrier" },
        assign(shared(i32("tid")), "=", n(0)),
      ];
    case "sharedSameValue":
      return [{ k: "shared", name: SHARED, t: "i32", dims: [1] }, { k: "if", c: bin("bool", "==", i32("tid"), n(0)), then: [assign(shared(n(0)), "=", n(7))], else: null }];
    case "shuffleOrdersNothing":
      return [decl, own, { k: "do", e: builtin("i32", "syncWarp") }, readLeft(bin("bool", ">", bin("i32", "%", i32("tid"), n(32)), n(0)))];
    default:
      return [];
  }
}

function statements(kind: RaceKind, threads: number): Stmt[] {
  const decl = (length: number): Stmt => ({ k: "shared", name: SHARED, t: "i32", dims: [length] });
  const own = assign(shared(i32("tid")), "=", i32("gid"));
  const readLeft: Stmt = { k: "if", c: bin("bool", ">", i32("tid"), n(0)), then: [assign(out(i32("o")), "=", index("i32", SHARED, bin("i32", "-", i32("tid"), n(1))))], else: null };
  switch (kind) {
    case "sharedReadAfterWrite":
      return [decl(threads), own, readLeft];
    case "sharedWriteAfterRead":
      return [
        decl(threads),
        own,
        { k: "barrier" },
        assign(out(i32("o")), "=", index("i32", SHARED, bin("i32", "%", bin("i32", "+", i32("tid"), n(1)), n(threads)))),
        assign(shared(i32("tid")), "=", n(0)),
      ];
    case "sharedSameValue":
      return [decl(1), assign(shared(n(0)), "=", n(7))];
    case "shuffleOrdersNothing":
      return [decl(threads), own, assign(out(bin("i32", "+", i32("o"), n(1))), "=", builtin("i32", "shflDown", i32("gid"), n(1))), readLeft];
    case "globalThreads":
      return [assign(out(n(0)), "=", i32("tid"))];
    case "globalBlocks":
      return [{ k: "if", c: bin("bool", "==", i32("tid"), n(0)), then: [assign(out(n(0)), "=", bin("i32", "+", index("i32", "out_i32", n(0)), n(1)))], else: null }];
  }
}

/**
 * `p` with a race of one of the kinds its launch can have planted after its prologue (with
 * `ordered`, its corrected version); `p` itself (race undefined) when it can have none.
 */
export function plantRace(p: Program, opts: { readonly ordered?: boolean } = {}): fc.Arbitrary<{ readonly program: Program; readonly race: PlantedRace | undefined }> {
  const kinds = raceKindsFor(p.grid, p.block).filter((k) => !opts.ordered || ORDERED_KINDS.includes(k));
  if (kinds.length === 0) return fc.constant({ program: p, race: undefined });
  const threads = p.block[0] * p.block[1] * p.block[2];
  return fc.constantFrom(...kinds).map((kind) => {
    const planted = opts.ordered ? ordered(kind, threads) : statements(kind, threads);
    const text = opts.ordered ? `a planted data race, corrected: ${kind}` : `a planted data race: ${kind}`;
    const body = [...p.body.slice(0, 3), { k: "comment", text } as Stmt, ...planted, ...p.body.slice(3)];
    const element = kind.startsWith("global") ? "global out_i32[0]" : `shared ${SHARED}[`;
    return { program: { ...p, body }, race: { kind, element } };
  });
}
