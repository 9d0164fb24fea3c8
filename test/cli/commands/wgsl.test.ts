/** `gkc wgsl FILE [--kernel K]` (src/cli/commands/wgsl.ts): the shader, a kernel's layout, refusals located. */
import { describe, expect, it } from "vitest";
import type { Io } from "../../../src/cli/io.js";
import { main } from "../../../src/cli/main.js";

async function gkc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), color: false, cwd: process.cwd(), env: process.env };
  const code = await main(argv, io);
  return { code, out: out.trimEnd(), err: err.trimEnd() };
}

describe("gkc wgsl", () => {
  it("prints the shader, and with --kernel the kernel's bindings as JSON", async () => {
    const r = await gkc("wgsl", "examples/saxpy.gk");
    expect(r.code).toBe(0);
    expect(r.out).toContain("@compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)\nfn saxpy(");
    expect(r.out).toContain("@group(0) @binding(3) var<storage, read_write> out: array<f32>;");
    const k = await gkc("wgsl", "examples/saxpy.gk", "--kernel", "saxpy");
    const layout = JSON.parse(k.out.slice(k.out.indexOf("\n{") + 1));
    expect(layout).toMatchObject({ entryPoint: "saxpy", uniform: { binding: 0, bytes: 16 } });
    expect(layout.params.map((p: { kind: string; name: string }) => `${p.kind} ${p.name}`)).toEqual(["value n", "value alpha", "buffer x", "buffer y", "buffer out"]);
  });

  it("refuses what WGSL cannot express, located, and an unknown kernel by name", async () => {
    const r = await gkc("wgsl", "examples/warp_reduce.gk");
    expect(r.code).toBe(1);
    expect(r.err).toContain("examples/warp_reduce.gk:11:10 - error GK7008: the WGSL target has no warp operations");
    const k = await gkc("wgsl", "examples/saxpy.gk", "--kernel", "nope");
    expect(k.code).toBe(2);
    expect(k.err).toContain("examples/saxpy.gk has no kernel nope (its kernels: saxpy)");
    expect(k.out).toBe("");
    expect((await gkc("wgsl", "--help")).out).toContain("gkc wgsl FILE [--kernel K]");
  });
});
