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

/**
 * A string (or another JSON value) as a literal in generated code (JavaScript, TypeScript,
 * gk): JSON's escapes, and U+2028 and U+2029 escaped too, which end a line in a comment, and
 * a string before ES2019. Every name or path in generated code is one of these (or absent),
 * never text of its own.
 */
export function codeLiteral(value: string | object): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}
