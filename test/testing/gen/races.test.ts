/**
 * The race detector against the generator (src/testing/gen/races.ts): every race planted in a
 * random kernel is reported (GK8040) on the planted element, and no generated kernel without a
 * planted race is reported (they are race-free by construction: each thread writes its own
 * output slots and shared elements, between barriers; accumulators take atomics).
 *
 * The corrected versions of the planted races (a barrier(), one writer, a syncWarp()) are not
 * reported either.
 *
 * Deterministic: seed GK_RACE_SEED (default 1); GK_RACE_KERNELS kernels of each kind (default
 * 200, about a minute on one core). For the issue's figure: GK_RACE_KERNELS=10000 npx vitest run --project unit test/testing/gen/races.test.ts
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkBatch, simulate } from "../../../src/testing/differential.js";
import { arbProgram, plantRace, printBatch, raceKindsFor, RACE_KINDS, type Program } from "../../../src/testing/gen/index.js";

const SEED = Number(process.env.GK_RACE_SEED ?? 1);
const COUNT = Number(process.env.GK_RACE_KERNELS ?? 200);
const BATCH = 100;
// Generous: a loaded CI machine is slow, and a count of 10,000 runs for an hour.
const TIMEOUT = { timeout: Math.max(600_000, COUNT * 5_000) };

/** Runs `programs` with race checking, `BATCH` to a module; what each one's run threw (undefined: nothing). */
function runAll(programs: readonly Program[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let at = 0; at < programs.length; at += BATCH) {
    const batch = printBatch(programs.slice(at, at + BATCH).map((program, i) => ({ name: `k${at + i}`, program })));
    const c = checkBatch(batch, `races${at}.gk`);
    expect(c.problems.map((p) => p.detail)).toEqual([]);
    for (const k of batch.kernels) {
      const r = simulate(c.ir!, c.sources, k, { checkRaces: true });
      out.push("error" in r ? `${r.error.code}: ${r.error.diagnostic.message}` : undefined);
    }
  }
  return out;
}

/** `n` draws of `arb`, in batches each from its own seed (so a batch can be replayed alone). */
function draw<T>(arb: fc.Arbitrary<T>, n: number): T[] {
  const out: T[] = [];
  for (let b = 0; out.length < n; b++) out.push(...fc.sample(arb, { seed: SEED + b, numRuns: Math.min(BATCH, n - out.length) }));
  return out;
}

describe("planted races (GK8040)", () => {
  it("are planted of every kind a launch can have, and none in a launch of one thread", () => {
    expect(raceKindsFor([1, 1, 1], [1, 1, 1])).toEqual([]);
    expect(raceKindsFor([2, 1, 1], [1, 1, 1])).toEqual(["globalBlocks"]);
    expect(raceKindsFor([1, 1, 1], [2, 1, 1])).toEqual(RACE_KINDS.filter((k) => k !== "globalBlocks"));
  });

  it(`are all found, on the planted element (${COUNT} kernels, seed ${SEED})`, TIMEOUT, () => {
    const planted = draw(arbProgram().chain(plantRace), COUNT);
    const results = runAll(planted.map((p) => p.program));
    const missed: string[] = [];
    const kinds = new Map<string, number>();
    planted.forEach(({ race }, i) => {
      const got = results[i];
      if (!race) {
        if (got !== undefined) missed.push(`k${i} (no race planted): ${got}`);
        return;
      }
      kinds.set(race.kind, (kinds.get(race.kind) ?? 0) + 1);
      if (!got?.startsWith("GK8040: ") || !got.includes(`data race on ${race.element}`)) missed.push(`k${i} (${race.kind}): ${got ?? "no report"}`);
    });
    console.log(`planted races: ${planted.filter((p) => p.race).length} of ${COUNT} kernels (by kind: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}), ${missed.length} missed`);
    expect(missed).toEqual([]);
    expect([...kinds.keys()].sort()).toEqual([...RACE_KINDS].sort());
  });

  it(`are not reported once corrected: a barrier(), one writer, a syncWarp() (${COUNT} kernels, seed ${SEED})`, TIMEOUT, () => {
    const corrected = draw(arbProgram().chain((p) => plantRace(p, { ordered: true })), COUNT);
    const flagged = runAll(corrected.map((c) => c.program)).flatMap((r, i) => (r === undefined ? [] : [`k${i} (${corrected[i]!.race?.kind ?? "none"}): ${r}`]));
    console.log(`corrected planted races: ${corrected.filter((c) => c.race).length} of ${COUNT} kernels, flagged: ${flagged.length}`);
    expect(flagged).toEqual([]);
  });

  it(`are the only reports: generated kernels run clean with race checking on (${COUNT} kernels, seed ${SEED})`, TIMEOUT, () => {
    const programs = draw(arbProgram(), COUNT);
    const flagged = runAll(programs).flatMap((r, i) => (r === undefined ? [] : [`k${i}: ${r}`]));
    console.log(`race-free generated kernels: ${COUNT}, flagged: ${flagged.length}`);
    expect(flagged).toEqual([]);
  });
});
