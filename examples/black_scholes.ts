// European call and put option prices by the Black-Scholes formula: examples/black_scholes.gk
// written in TypeScript, with CUDA's fast intrinsics (fastExp, fastLog, fastDiv) as there.
import { abs, deviceFn, fastDiv, fastExp, fastLog, blockDim, globalId, gridDim, kernel, sqrt, type f32, type Global, type i32, type ReadonlyGlobal } from "gk";

const A1 = 0.31938153;
const A2 = -0.356563782;
const A3 = 1.781477937;
const A4 = -1.821255978;
const A5 = 1.330274429;
const RSQRT2PI = 0.39894228040143267793994605993438;

/** The standard normal CDF at d. */
const cnd = deviceFn((d: f32): f32 => {
  const k = fastDiv(1.0, 1.0 + 0.2316419 * abs(d));
  const tail = RSQRT2PI * fastExp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0.0 ? 1.0 - tail : tail;
});

export const blackScholes = kernel((n: i32, price: ReadonlyGlobal<f32>, strike: ReadonlyGlobal<f32>, years: ReadonlyGlobal<f32>,
                                    r: f32, v: f32, call: Global<f32>, put: Global<f32>) => {
  for (let i = globalId.x; i < n; i += blockDim.x * gridDim.x) {
    const s = price[i]!;
    const x = strike[i]!;
    const t = years[i]!;
    const sqrtT = sqrt(t);
    const d1 = fastDiv(fastLog(fastDiv(s, x)) + (r + 0.5 * v * v) * t, v * sqrtT);
    const d2 = d1 - v * sqrtT;
    const cndD1 = cnd(d1);
    const cndD2 = cnd(d2);
    const expRT = fastExp(-r * t);
    call[i] = s * cndD1 - x * expRT * cndD2;
    put[i] = x * expRT * (1.0 - cndD2) - s * (1.0 - cndD1);
  }
});
