/**
 * What `gkc run` prints (src/cli/commands/run.ts, issue 25 item 8): an output of any size is
 * written piece by piece (Io.outParts), never as one string, with --json and with --all; the
 * pieces make the same text as before. In-process, on the CPU simulator; the size of each
 * write is counted, not timed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

const dir = mkdtempSync(join(tmpdir(), "gk-run-output-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = 1 << 20;
const file = join(dir, "big.gk");
writeFileSync(
  file,
  `struct P { a: i32, b: f32x2 }
device_kernel k(o: global<i32>, v: global<f32x4>, p: global<P>) {
  o[0] = 7; o[${N - 1}] = -1;
  v[1] = f32x4(1.5, -0.0, 3.0, 4.0);
  p[1].a = 2;
}
launch k(o = zeros(${N}), v = zeros(3), p = zeros(2)) grid(1) block(1);
`,
);

/** `gkc run FILE ...flags` with every write to stdout recorded, one string each. */
async function gkc(...flags: string[]): Promise<{ code: number; writes: string[]; err: string }> {
  const writes: string[] = [];
  let err = "";
  const io: Io = {
    out: (t) => void writes.push(t.endsWith("\n") ? t : `${t}\n`),
    outParts: async (parts) => {
      for (const p of parts) writes.push(p);
      writes.push("\n");
    },
    err: (t) => (err += `${t}\n`),
    color: false,
    cwd: dir,
    env: { ...process.env, GK_CACHE_DIR: join(dir, "cache") },
  };
  return { code: await main(["run", file, "--device", "cpu", ...flags], io), writes, err };
}

describe("gkc run prints a large output in pieces", () => {
  it("--json: every element, no write longer than 1 MiB", async () => {
    const r = await gkc("--json");
    expect(r.err).toContain("running on the CPU simulator");
    expect(r.code).toBe(0);
    expect(Math.max(...r.writes.map((w) => w.length))).toBeLessThan(1 << 20);
    const json = JSON.parse(r.writes.join("")) as { launches: { kernel: string; outputs: { o: number[]; v: unknown[]; p: unknown[] } }[] };
    const [l] = json.launches;
    expect(l!.kernel).toBe("k");
    expect(l!.outputs.o.length).toBe(N);
    expect([l!.outputs.o[0], l!.outputs.o[1], l!.outputs.o[N - 1]]).toEqual([7, 0, -1]);
    expect(l!.outputs.v).toEqual([[0, 0, 0, 0], [1.5, "-0", 3, 4], [0, 0, 0, 0]]);
    expect(l!.outputs.p).toEqual([{ a: 0, b: [0, 0] }, { a: 2, b: [0, 0] }]);
  });

  it("--all: every element, no write longer than 1 MiB", async () => {
    const r = await gkc("--all");
    expect(r.code).toBe(0);
    expect(Math.max(...r.writes.map((w) => w.length))).toBeLessThan(1 << 20);
    const lines = r.writes.join("").split("\n");
    expect(lines[0]).toBe(`o = [7, ${"0, ".repeat(N - 2)}-1]`);
    expect(lines.slice(1)).toEqual(["v = [[0, 0, 0, 0], [1.5, -0, 3, 4], [0, 0, 0, 0]]", "p = [{ a: 0, b: [0, 0] }, { a: 2, b: [0, 0] }]", ""]);
  });

  it("without --all, the first 64 elements and a count of the rest", async () => {
    const r = await gkc();
    expect(r.writes.join("").split("\n")[0]).toBe(`o = [7, ${"0, ".repeat(63).slice(0, -2)}, ... ${N - 64} more]`);
  });
});
