/**
 * Keeping one mistake to one message. After a syntax error the parser resynchronizes,
 * but the tokens right after the error often trip it again (`x = a b c;`, a parameter
 * list with a missing name). Like most compilers, gk reports the first error of a
 * stretch and stays quiet until the next statement boundary: the first `;`, `{` or `}`
 * after the error at its own nesting level (a bracket group the error sits in is
 * skipped as a whole). An error at the top level stays quiet through the next `{ ... }`
 * group, which is usually the body of the declaration it broke.
 */
import type { IToken } from "chevrotain";
import { LBracket, LCurly, LParen, RBracket, RCurly, RParen, Semi } from "./tokens.js";

export class BracketMap {
  /** For each token index, the index of its matching bracket (or -1). */
  private readonly partner: Int32Array;
  /** For each token index, the innermost bracket open around it (or -1). */
  private readonly enclosing: Int32Array;
  /** The innermost bracket still open at the end of the input (or -1). */
  private readonly openAtEnd: number;

  constructor(private readonly tokens: readonly IToken[]) {
    this.partner = new Int32Array(tokens.length).fill(-1);
    this.enclosing = new Int32Array(tokens.length).fill(-1);
    const stack: number[] = [];
    tokens.forEach((t, i) => {
      this.enclosing[i] = stack[stack.length - 1] ?? -1;
      const open = openerOf(t);
      if (open === undefined) {
        if (isOpener(t)) stack.push(i);
        return;
      }
      let j = stack.length - 1;
      while (j >= 0 && tokens[stack[j]!]!.tokenType !== open) j--;
      if (j < 0) return;
      this.partner[i] = stack[j]!;
      this.partner[stack[j]!] = i;
      stack.length = j;
    });
    this.openAtEnd = stack[stack.length - 1] ?? -1;
  }

  /** The innermost bracket of a kind still open where token `index` stands (past the end: at the end of input). */
  openAround(index: number, kind: IToken["tokenType"]): IToken | undefined {
    let j = index < this.tokens.length ? this.enclosing[index]! : this.openAtEnd;
    while (j >= 0 && this.tokens[j]!.tokenType !== kind) j = this.enclosing[j]!;
    return j >= 0 ? this.tokens[j] : undefined;
  }

  /** Index of the first token starting at or after `offset`. */
  indexAt(offset: number): number {
    let lo = 0;
    let hi = this.tokens.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tokens[mid]!.startOffset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Where the closer matching `open` stands, when it is still ahead of `from` and only
   * stray tokens of the same statement lie between (no `;`, `{` or `}`): the parser may
   * then skip straight to it. Undefined otherwise.
   */
  closerAhead(open: IToken, from: number): number | undefined {
    if (!Number.isFinite(open.startOffset) || !Number.isFinite(from)) return undefined;
    const i = this.indexAt(open.startOffset);
    const close = this.tokens[i] === open ? this.partner[i]! : -1;
    if (close < 0 || this.tokens[close]!.startOffset <= from) return undefined;
    for (let k = this.indexAt(from); k < close; k++) {
      const t = this.tokens[k]!.tokenType;
      if (t === Semi || t === LCurly || t === RCurly) return undefined;
    }
    return this.tokens[close]!.startOffset;
  }

  /** The offset up to which errors after one at token `index` are taken as its consequences. */
  quietUntil(index: number, topLevel: boolean): number {
    const n = this.tokens.length;
    let k = index;
    const around = index < n ? this.enclosing[index]! : -1;
    if (around >= 0 && this.tokens[around]!.tokenType !== LCurly && this.partner[around]! >= 0) k = this.partner[around]! + 1;
    let depth = 0;
    for (; k < n; k++) {
      const t = this.tokens[k]!;
      if (t.tokenType === LParen || t.tokenType === LBracket) depth++;
      else if (t.tokenType === RParen || t.tokenType === RBracket) depth = Math.max(0, depth - 1);
      else if (depth === 0 && (t.tokenType === Semi || t.tokenType === RCurly)) return t.startOffset;
      else if (depth === 0 && t.tokenType === LCurly) {
        const close = this.partner[k]!;
        return topLevel && close >= 0 ? this.tokens[close]!.startOffset : t.startOffset;
      }
    }
    return Infinity;
  }
}

function isOpener(t: IToken): boolean {
  return t.tokenType === LParen || t.tokenType === LBracket || t.tokenType === LCurly;
}

function openerOf(t: IToken): IToken["tokenType"] | undefined {
  if (t.tokenType === RParen) return LParen;
  if (t.tokenType === RBracket) return LBracket;
  if (t.tokenType === RCurly) return LCurly;
  return undefined;
}
