/**
 * Random kernels built from the shapes the region path transforms (regions/lower.ts and
 * emit.ts): barriers at every depth of for, while and do-while loops and ifs, device_fns that
 * reach a barrier called inside expressions and loop conditions, break, continue and return
 * around barriers, locals and shared memory across them. Conditions are sometimes uniform and
 * sometimes not, so some kernels diverge (GK8002) or read shared memory no thread wrote
 * (GK8013). Whatever happens, the region path must do what the generator path does: `run`
 * (helpers.ts) compares arrays, steps and errors.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileKernel, SimError } from "../../../src/runtime/sim/index.js";
import { gk, run } from "../../runtime/sim/helpers.js";

const HEADER = `device_fn sync_add(a: global<i32>, i: i32, v: i32): i32 {
  a[i % 16] += v;
  barrier();
  return a[(i + 1) % 16];
}

device_fn sync_loop(a: global<i32>, i: i32, n: i32): i32 {
  let s = 0;
  for (let k = 0; k < n; k += 1) {
    s += sync_add(a, i + k, k);
    if (s > 1000) {
      return s;
    }
  }
  return s - 1;
}

device_fn sync_less(i: i32, n: i32): bool {
  barrier();
  return i < n;
}
`;

/** Conditions: uniform across a block (the first three) or per thread (the others). */
const conds = ["r < 2", "blockIdx.x == 1", "acc0 > 50", "t < 3", "(t + r) % 3 == 0", "acc1 % 2 == 0"];

/** Statements that may stop at barriers, nested up to `depth`. */
function stmt(depth: number): fc.Arbitrary<string> {
  const leaf = fc.constantFrom(
    "barrier();",
    "acc0 += sync_add(data, t, r);",
    "acc1 = acc1 * 3 + sync_add(data, t + 1, 1) - sync_add(data, t, acc0 % 5);",
    "buf[t] = acc0 + r; barrier(); acc1 += buf[(t + 1) % blockDim.x];",
    "acc0 += sync_loop(data, t, 3);",
    "acc1 += 1;",
    "data[t % 16] += acc1;",
  );
  if (depth === 0) return leaf;
  const body = fc.array(stmt(depth - 1), { minLength: 1, maxLength: 3 }).map((ss) => ss.join(" "));
  const cond = fc.constantFrom(...conds);
  return fc.oneof(
    { arbitrary: leaf, weight: 3 },
    fc.tuple(cond, body, body).map(([c, a, b]) => `if (${c}) { ${a} } else { ${b} }`),
    fc.tuple(fc.integer({ min: 0, max: 3 }), body).map(([n, b]) => `for (let r = 0; r < ${n}; r += 1) { ${b} }`),
    fc.tuple(fc.integer({ min: 1, max: 3 }), body).map(([n, b]) => `{ let r = 0; do { ${b} r += 1; } while (r < ${n}); }`),
    fc.tuple(fc.integer({ min: 0, max: 3 }), body).map(([n, b]) => `{ let r = 0; while (sync_less(r, ${n})) { ${b} r += 1; } }`),
    fc.tuple(cond, body).map(([c, b]) => `for (let r = 0; r < 3; r += 1) { if (${c}) { continue; } ${b} }`),
    fc.tuple(cond, body).map(([c, b]) => `for (let r = 0; r < 3; r += 1) { ${b} if (${c}) { break; } }`),
    fc.tuple(cond, body).map(([c, b]) => `{ let r = 1; if (${c}) { return; } ${b} }`),
  );
}

const kernel = fc.array(stmt(2), { minLength: 1, maxLength: 3 }).map(
  (ss) => `${HEADER}
device_kernel k(data: global<i32>, out: global<i32>) {
  shared buf: i32[64];
  const t = threadIdx.x;
  let acc0 = t;
  let acc1 = 7;
  let r = 0;
  ${ss.join("\n  ")}
  out[blockIdx.x * blockDim.x + t] = acc0 * 1000 + acc1;
}
`,
);

describe("random kernels of barrier shapes", () => {
  it("run on the region path as on the generator path, errors included", () => {
    const seen = { ok: 0, errors: 0 };
    fc.assert(
      fc.property(kernel, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 2 }), (src, threads, blocks) => {
        const p = gk(src);
        // Kernels that happen to reach no barrier run on the fast path.
        expect(compileKernel(p.ir, "k").barrierPath).not.toBe("generators");
        try {
          run(p, "k", [blocks], [threads], [Int32Array.from({ length: 16 }, (_, i) => i * 3), new Int32Array(threads * blocks)], { stepBudget: 5000 });
          seen.ok++;
        } catch (e) {
          if (!(e instanceof SimError)) throw e;
          seen.errors++;
        }
      }),
      { numRuns: 150 },
    );
    // Both outcomes are exercised.
    expect(seen.ok).toBeGreaterThan(10);
    expect(seen.errors).toBeGreaterThan(10);
  });
});
