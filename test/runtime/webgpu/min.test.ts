import { it } from "vitest";
it("p", async () => {
  process.env.VK_ICD_FILENAMES="/usr/lib/chromium/vk_swiftshader_icd.json";
  const { create, globals } = await import("webgpu");
  Object.assign(globalThis, globals);
  const adapter = await create([]).requestAdapter();
  const device = await adapter!.requestDevice();
  const code = `override BX: u32 = 64;
@group(0) @binding(0) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(BX) fn main(@builtin(global_invocation_id) g: vec3<u32>) { y[g.x] = 1.0; }`;
for (let i = 0; i < 3; i++) {
const module = device.createShaderModule({ code });
await module.getCompilationInfo();
device.pushErrorScope("validation");
const p = device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main", constants: { BX: 64 } } }); 
const e = await device.popErrorScope();
console.log("sync ok", i, e);
}
});
