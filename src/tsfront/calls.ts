/**
 * Where a TypeScript file declares its kernels: each `const name = kernel(fn)` with the
 * offset just after `fn`, where a bundler plugin (gk/vite) adds what it lowered at build time
 * as kernel()'s second argument.
 */
import { loadTypeScript } from "./index.js";

export interface KernelCall {
  readonly name: string;
  /** Offset just after the call's first argument. */
  readonly afterBody: number;
}

export function kernelCalls(file: string, text: string): KernelCall[] {
  const ts = loadTypeScript();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const kernelNames = new Set<string>();
  for (const s of sf.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || s.moduleSpecifier.text !== "gk") continue;
    const named = s.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) for (const el of named.elements) if ((el.propertyName ?? el.name).text === "kernel") kernelNames.add(el.name.text);
  }
  const calls: KernelCall[] = [];
  for (const s of sf.statements) {
    if (!ts.isVariableStatement(s)) continue;
    for (const d of s.declarationList.declarations) {
      const init = d.initializer;
      if (!ts.isIdentifier(d.name) || !init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || !kernelNames.has(init.expression.text)) continue;
      const body = init.arguments[0];
      if (body && init.arguments.length === 1) calls.push({ name: d.name.text, afterBody: body.getEnd() });
    }
  }
  return calls;
}
