/**
 * gkc's output streams (src/cli/io.ts): a reader that closes stdout early
 * (`gkc run FILE --json | head -c 10`) ends the command quietly, with no EPIPE stack
 * trace, for every command. Runs the built gkc (bin/gkc.js) in a child process, its
 * stdout piped into `head -c 10`; each output is far larger than a pipe's buffer, so
 * the writes after head exits fail.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "gk-cli-io-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** `gkc ARGS | head -c 10`: gkc's exit status and what it wrote to stderr. */
async function intoHead(...args: string[]): Promise<{ code: number; err: string }> {
  const errFile = join(dir, "stderr.txt");
  const r = await execa("bash", ["-c", 'err="$1"; shift; node bin/gkc.js "$@" 2>"$err" | head -c 10 >/dev/null; exit "${PIPESTATUS[0]}"', "gkc", errFile, ...args], {
    reject: false,
    timeout: 600_000,
    env: { GK_CACHE_DIR: join(dir, "cache"), NO_COLOR: "1" },
  });
  return { code: r.exitCode ?? -1, err: readFileSync(errFile, "utf8") };
}

const big = file("big.gk", "device_kernel k(out: global<i32>) { out[globalId.x] = globalId.x; }\nlaunch k(out = zeros(200000)) grid(200) block(1000);\n");
const many = file("many.gk", `device_kernel k(out: global<i32>) {\n${"  out[0] = out[0] + 1;\n".repeat(4000)}}\n`);
const launches = file("launches.gk", `device_kernel k(out: global<i32>) { out[globalId.x] = 7; }\n${"launch k(out = zeros(64)) grid(1) block(64);\n".repeat(400)}`);

describe("a closed stdout", () => {
  const cases: [string, string[]][] = [
    ["run --json", ["run", big, "--device", "cpu", "--json"]],
    ["run", ["run", launches, "--device", "cpu"]],
    ["ir", ["ir", many]],
    ["cuda", ["cuda", many]],
  ];
  for (const [what, args] of cases) {
    it(`ends gkc ${what} quietly`, async () => {
      const r = await intoHead(...args);
      expect(r.err).not.toMatch(/EPIPE|Error|\n\s+at /);
      expect(r.code).toBe(0);
    });
  }

  it("that cannot be written for another reason (a full disk) is an error on stderr, not a stack trace", async () => {
    const r = await execa("bash", ["-c", 'node bin/gkc.js run "$1" --device cpu --json > /dev/full', "gkc", big], { reject: false, env: { NO_COLOR: "1" } });
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain("gkc: cannot write to stdout: ENOSPC");
    expect(String(r.stderr)).not.toMatch(/\n\s+at /);
  });
});
