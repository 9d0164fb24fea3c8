/**
 * How a backend spells a builtin for one operand type, as data the backend reads instead of
 * text it re-parses:
 *
 * - `call`: `fn(a, b, ...)`. Each operand once, in order, in an argument slot (so it goes in
 *   as it is); the whole binds as a primary expression.
 * - `raw`: any text over the operands, with what a backend must know declared beside it:
 *   `prec`, how tightly the text's outermost operator binds ("primary": a name, a call or a
 *   parenthesized whole; "unary": a cast or prefix operator applied to one); and `once`,
 *   whether the text evaluates each operand exactly once, in order, unconditionally. Where it
 *   does not (`isnan(x)` is `(x !== x)` in JavaScript), a backend evaluates the operands into
 *   temporaries first. Operands of a raw template sit in argument slots or parentheses, so they
 *   too go in as they are (test/ir/templates.test.ts checks every template of the table).
 *
 * No builtin is an infix operator in any backend: operators are the backends' own (their
 * operator and precedence tables), so there is no `infix` form.
 */

export type TemplatePrec = "primary" | "unary";

export type Template =
  | { readonly form: "call"; readonly fn: string }
  | { readonly form: "raw"; readonly text: (ops: readonly string[]) => string; readonly prec: TemplatePrec; readonly once: boolean };

export function call(fn: string): Template {
  return { form: "call", fn };
}

/** A raw template that evaluates each operand once, in order (declare `once: false` where it does not). */
export function raw(text: (ops: readonly string[]) => string, opts: { readonly prec?: TemplatePrec; readonly once?: boolean } = {}): Template {
  return { form: "raw", text, prec: opts.prec ?? "primary", once: opts.once ?? true };
}

/** The template's text with these operand texts in place. */
export function fill(t: Template, ops: readonly string[]): string {
  return t.form === "call" ? `${t.fn}(${ops.join(", ")})` : t.text(ops);
}

/** Whether pasting operand code straight into the template evaluates each operand once, in order. */
export function evaluatesOnce(t: Template): boolean {
  return t.form === "call" || t.once;
}

export function precOf(t: Template): TemplatePrec {
  return t.form === "call" ? "primary" : t.prec;
}

/** The function a template calls first, if it starts with a call (`__popc((unsigned int)(x))` → `__popc`). */
export function calledFunction(t: Template): string | undefined {
  if (t.form === "call") return t.fn;
  return /^\(?([A-Za-z_]\w*)\(/.exec(t.text(["a", "b", "c", "d"]))?.[1];
}
