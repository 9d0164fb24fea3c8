/** Small helpers shared by every stage. */

/** A compiler bug: thrown only for states that correct code can never reach. */
export class InternalError extends Error {
  override readonly name = "InternalError";
}

/** Asserts a condition that only a compiler bug can break. */
export function invariant(cond: unknown, message: string): asserts cond {
  if (!cond) throw new InternalError(`internal compiler error: ${message}`);
}

/** Ends an exhaustive `switch (node.kind)`: a new kind breaks the build where it is not handled. */
export function assertNever(x: never, what = "value"): never {
  throw new InternalError(`internal compiler error: unhandled ${what}: ${JSON.stringify(x)}`);
}
