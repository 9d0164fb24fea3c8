/**
 * CUDA's names for what gk spells differently (`sqrtf` → `sqrt`, `__syncthreads` →
 * `barrier`, `__shfl_down_sync` → `shflDown`, `__expf` → `fastExp`, `float(x)` → `f32(x)`),
 * so that code ported from CUDA gets a message that names the gk builtin. Most come from the
 * builtin table itself: the function each CUDA template calls. The rest are listed below, and
 * C's type names used as casts (src/diagnostics/foreignTypes.ts).
 */
import { foreignScalar } from "../../diagnostics/foreignTypes.js";
import { builtins, type WarpEntry } from "../../ir/builtins.js";
import type { Spelling } from "../../ir/target.js";
import { calledFunction } from "../../ir/templates.js";
import { CUDA_MATH, CUDA_MEMORY, CUDA_SYNC, CUDA_WARP } from "./builtins.js";

/** What to write instead of a CUDA name: a gk call, and a note where the two differ. */
export type { Spelling };


/**
 * CUDA names the table's templates do not call themselves. (The fast intrinsics, `__expf` and
 * the others, have entries of their own, `fastExp`, ...: found in the table.)
 */
const INTRINSICS: Readonly<Record<string, Spelling>> = {
  __saturatef: { gk: "clamp", note: "clamp(x, 0.0, 1.0)" },
  __match_all_sync: { gk: "matchAll", note: "gk passes the mask of the warp's threads itself, and matchAll(v) is the bool CUDA stores through its pointer" },
  __shfl_down_sync: { gk: "shflDown", note: "gk passes the mask of the warp's threads itself" },
  __activemask: { gk: "ballot", note: "ballot(true)" },
  fabs: { gk: "abs" },
  fabsf: { gk: "abs" },
  fminf: { gk: "min" },
  fmaxf: { gk: "max" },
  __pipeline_memcpy_async: { gk: "cpAsync", note: "cpAsync(dst, di, src, si, bytes) names the two elements as array and index" },
  __pipeline_commit: { gk: "cpAsyncCommit" },
  __pipeline_wait_prior: { gk: "cpAsyncWait" },
};

function fromTable(): Map<string, Spelling> {
  const m = new Map<string, Spelling>();
  for (const b of builtins) {
    const names: (string | undefined)[] = [];
    if (b.rule.kind === "math") for (const impl of Object.values(CUDA_MATH[b.name] ?? {})) names.push(calledFunction(impl.template));
    if (b.rule.kind === "sync") names.push(calledFunction(CUDA_SYNC[b.name]!));
    if (b.rule.kind === "warp") names.push(calledFunction(CUDA_WARP[(b as WarpEntry).name].template));
    if (b.rule.kind === "memory") for (const impl of Object.values(CUDA_MEMORY[b.name] ?? {})) names.push(impl && calledFunction(impl.template));
    const note = b.rule.kind === "warp" && b.rule.params.length ? "gk passes the mask of the warp's threads itself" : undefined;
    for (const n of names) {
      if (n && n !== b.name && !n.startsWith("gk_") && !m.has(n)) m.set(n, { gk: b.name, ...(note && { note }) });
    }
  }
  return m;
}

const SPELLINGS: ReadonlyMap<string, Spelling> = new Map([...fromTable(), ...Object.entries(INTRINSICS)]);

/** The gk spelling of a CUDA function or cast name, if it has one. */
export function cudaSpelling(name: string): Spelling | undefined {
  const cast = foreignScalar(name);
  if (cast) return { gk: cast, note: "gk writes a conversion as a call of the type" };
  return SPELLINGS.get(name);
}
