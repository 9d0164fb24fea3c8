// Imports a .gk kernel and a kernel written in TypeScript, and runs one after the other:
// on the GPU where there is one, else on gk's simulator (GK_DEVICE=cpu forces it).
import scaleModule, { BLOCK, scale } from "./kernels/scale.gk";
import { blur } from "./kernels/blur.js";

const n = 8;
const x = Float32Array.from({ length: n }, (_, i) => i);
const { y } = await scale({ grid: 1, block: BLOCK }, { n, a: 2, b: 1, x, y: new Float32Array(n) });
const out = new Float32Array(n);
await blur({ grid: 1, block: BLOCK }, n, y, out);
console.log(`device: ${scaleModule.device}`);
console.log(`y = ${[...y].join(", ")}`);
console.log(`blurred = ${[...out].join(", ")}`);
