/**
 * gk/testing's random kernels (`arbKernel`, `arbProgram`) are fast-check arbitraries, and
 * fast-check is an optional peer dependency of gk: installed by those who write property
 * tests, not needed by the rest of gk/testing. The generators are loaded here when
 * gk/testing is, where fast-check is installed; where it is not, the rest of gk/testing works
 * and these two say in one line what to install.
 */
import type * as Generators from "./gen/index.js";

const FAST_CHECK_MISSING = "needs fast-check, which is not installed (an optional peer dependency of gk, for property tests): npm install --save-dev fast-check";

/** The generators, or undefined where fast-check is not installed. Any other failure to load them is a bug, and thrown. */
const generators: typeof Generators | undefined = await import("./gen/index.js").catch((e: unknown) => {
  if (isFastCheckMissing(e)) return undefined;
  throw e;
});

function isFastCheckMissing(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return err?.code === "ERR_MODULE_NOT_FOUND" && typeof err.message === "string" && err.message.includes("'fast-check'");
}

function loaded(fn: string): typeof Generators {
  if (!generators) throw new Error(`gk/testing: ${fn} ${FAST_CHECK_MISSING}`);
  return generators;
}

/** Random well-typed, well-defined kernels with their launch, arguments and tolerances (src/testing/gen). */
export function arbKernel(...args: Parameters<typeof Generators.arbKernel>): ReturnType<typeof Generators.arbKernel> {
  return loaded("arbKernel").arbKernel(...args);
}

/** Random programs, before printing (src/testing/gen/kernel.ts). */
export function arbProgram(...args: Parameters<typeof Generators.arbProgram>): ReturnType<typeof Generators.arbProgram> {
  return loaded("arbProgram").arbProgram(...args);
}
