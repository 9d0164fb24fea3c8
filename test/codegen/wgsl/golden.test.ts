/**
 * The generated WGSL of every example WGSL can express, compared with
 * test/codegen/wgsl/golden/<example>.wgsl exactly (vitest file snapshots; `npx vitest run
 * test/codegen/wgsl -u` rewrites them: review the diff), and the located refusal of every
 * other example (the list spec/wgsl.md gives).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitWgsl } from "../../../src/codegen/wgsl/index.js";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { formatDiagnostics } from "../../../src/diagnostics/format.js";
import { frontEnd } from "../../../src/pipeline.js";

const EXAMPLES = "examples";
const GOLDEN = path.join("test", "codegen", "wgsl", "golden");
const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith(".gk")).sort();

/** What `gkc wgsl examples/<name>.gk` prints (no version), or the errors that refuse it. */
export function exampleWgsl(file: string): { source?: string; refused?: string } {
  const r = frontEnd(path.join(EXAMPLES, file), { target: WGSL_TARGET });
  if (!r.ir) return { refused: formatDiagnostics(r.diagnostics.filter((d) => d.severity === "error"), r.sources).split("\n").filter((l) => l.includes(" error GK")).join("\n") };
  return { source: emitWgsl(r.ir).source };
}

describe("golden WGSL of the examples", () => {
  for (const file of examples) {
    const { source } = exampleWgsl(file);
    if (source === undefined) continue;
    it(file, async () => {
      await expect(source).toMatchFileSnapshot(path.resolve(GOLDEN, file.replace(/\.gk$/, ".wgsl")));
    });
  }

  it("refuses the examples WGSL cannot express, naming the construct and the place", () => {
    const refused = examples.flatMap((f) => {
      const r = exampleWgsl(f).refused;
      return r ? [r] : [];
    });
    expect(refused.join("\n")).toMatchInlineSnapshot(`
      "examples/flash_attention.gk:17:3 - error GK4008: 'flash_f16_d64' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:18:3 - error GK4008: 'flash_f16_d64' now declares 32896 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:24:3 - error GK4008: 'flash_f16_d64_causal' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:25:3 - error GK4008: 'flash_f16_d64_causal' now declares 32896 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:31:3 - error GK4008: 'flash_bf16_d64' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:32:3 - error GK4008: 'flash_bf16_d64' now declares 32896 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:38:3 - error GK4008: 'flash_bf16_d64_causal' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:39:3 - error GK4008: 'flash_bf16_d64_causal' now declares 32896 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:44:3 - error GK4008: 'flash_f16_d128' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:45:3 - error GK4008: 'flash_f16_d128' now declares 65536 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:46:3 - error GK4008: 'flash_f16_d128' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:51:3 - error GK4008: 'flash_f16_d128_causal' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:52:3 - error GK4008: 'flash_f16_d128_causal' now declares 65536 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:53:3 - error GK4008: 'flash_f16_d128_causal' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:58:3 - error GK4008: 'flash_bf16_d128' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:59:3 - error GK4008: 'flash_bf16_d128' now declares 65536 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:60:3 - error GK4008: 'flash_bf16_d128' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:65:3 - error GK4008: 'flash_bf16_d128_causal' now declares 32768 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:66:3 - error GK4008: 'flash_bf16_d128_causal' now declares 65536 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/flash_attention.gk:67:3 - error GK4008: 'flash_bf16_d128_causal' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/hgemm.gk:175:3 - error GK4008: 'hgemm_f16' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/hgemm.gk:176:3 - error GK4008: 'hgemm_f16' now declares 147456 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/hgemm.gk:181:3 - error GK4008: 'hgemm_bf16' now declares 98304 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/hgemm.gk:182:3 - error GK4008: 'hgemm_bf16' now declares 147456 bytes of shared memory; a block may use at most 16384 bytes of shared memory (WebGPU's default workgroup storage), fixed-size and dynamic arrays together
      examples/lookback_scan.gk:42:7 - error GK7008: the WGSL target has no ordered accesses and fences, which this program uses here
      examples/reduce_generic.gk:31:109 - error GK5006: block size x must be between 1 and 256, but it is 512
      examples/sum4.gk:12:10 - error GK7008: the WGSL target has no warp operations (shuffles, votes, matches, syncWarp), which this program uses here
      examples/warp_reduce.gk:11:10 - error GK7008: the WGSL target has no warp operations (shuffles, votes, matches, syncWarp), which this program uses here"
    `);
  });

  it("is deterministic: the same IR gives the same text", () => {
    for (const file of examples) expect(exampleWgsl(file)).toEqual(exampleWgsl(file));
  });
});
