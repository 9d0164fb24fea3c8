/**
 * The checker's rule for the asynchronous copies (src/check/asyncCopies.ts): a fixed-size shared
 * array of T from a global array of T, a constant size of whole elements, an i32 valid count,
 * a constant wait count; statements only.
 */
import { describe, expect, it } from "vitest";
import { expectDiagnostics, expectError, printed } from "../helpers.js";

const K = (body: string) => `device_kernel k(x: readonly global<f32>, h: readonly global<f16>, n: i32, out: global<f32>) {
  shared t: f32[2][64];
  shared dyn: f32[];
  let loc: f32[4];
  ${body}
}
`;

describe("cpAsync's arguments", () => {
  it("makes a copy statement, partly indexed destination first, as printed", () => {
    const text = printed(K("cpAsync(t[1], 4 * threadIdx.x, x, 8, 16, n);\n  cpAsyncL2(t[0], 0, x, 0, 16);\n  cpAsyncCommit();\n  cpAsyncWait(2);\n  cpAsyncWaitAll();"));
    expect(text).toContain(
      ["  cpAsync(t[1:i32], 4:i32 *.i32 threadIdx.x, x, 8:i32, 16, n);", "  cpAsyncL2(t[0:i32], 0:i32, x, 0:i32, 16);", "  cpAsyncCommit();", "  cpAsyncWait(2);", "  cpAsyncWaitAll();"].join("\n"),
    );
  });

  it("refuses a wrong count of arguments", () => {
    expectError(K("cpAsync(t[0], 0, x, 0);"), "GK3004 5:3 cpAsync() takes 5 or 6 arguments (cpAsync(dst, di, src, si, bytes) or cpAsync(dst, di, src, si, bytes, valid)), but 4 were given");
    expectError(K("cpAsyncWait();"), "GK3004 5:3 cpAsyncWait() takes 1 argument (cpAsyncWait(n)), but 0 were given");
  });

  it("copies 4, 8 or 16 bytes of whole elements, a constant; cpAsyncL2 16", () => {
    expectError(K("cpAsync(t[0], 0, x, 0, 2);"), "GK3005 5:26 cpAsync() copies 4, 8 or 16 bytes, not 2");
    expectError(K("cpAsyncL2(t[0], 0, x, 0, 8);"), "GK3005 5:28 cpAsyncL2() copies 16 bytes, not 8 (cpAsync copies 4 or 8 bytes through L1)");
    expectError(K("cpAsync(t[0], 0, x, 0, n);"), "GK3014 5:26 the bytes cpAsync() copies must be a constant expression, but 'n' is computed at run time");
  });

  it("copies from a global array to a fixed-size shared array of the same scalar type", () => {
    expectError(K("cpAsync(t[0], 0, h, 0, 16);"), "GK3005 5:20 cpAsync() copies between arrays of one scalar type, but 't' holds f32 and 'h' holds f16");
    expectError(K("cpAsync(loc, 0, x, 0, 16);"), "GK3005 5:11 cpAsync() copies from a global array to a shared array, but 'loc' is a local array, f32[4]");
    expectError(K("cpAsync(out, 0, x, 0, 16);"), "GK3005 5:11 cpAsync() copies from a global array to a shared array, but 'out' is global<f32>");
    expectError(K("cpAsync(dyn, 0, x, 0, 16);"), "GK2046 5:11 cpAsync() copies to a shared array in aligned pieces, which gk cannot promise for 'dyn', a dynamic shared array (placed in the dynamic region after others)");
  });

  it("waits for a constant count of groups, 0 or more", () => {
    expectError(K("cpAsyncWait(n);"), "GK3014 5:15 the number of groups cpAsyncWait() leaves pending must be a constant expression, but 'n' is computed at run time");
    expectError(K("cpAsyncWait(-1);"), "GK3006 5:15 cpAsyncWait(n) waits until at most n groups are pending, so n is 0 or more, not -1");
  });

  it("takes a count of a generic kernel's constant parameters, checked in each instance", () => {
    const G = (launch: string) => `device_kernel k<S: i32>(x: readonly global<f32>) {
  const ahead = S - 1;
  cpAsyncWait(S - 2);
  cpAsyncWait(ahead);
}
${launch}`;
    const text = printed(G("launch k<4>(x = zeros(1)) grid(1) block(1);"));
    expect(text).toContain("  cpAsyncWait(2);\n  cpAsyncWait(3);");
    expectDiagnostics(G("launch k<1>(x = zeros(1)) grid(1) block(1);"), ["GK3006 3:15 in k<1>: cpAsyncWait(n) waits until at most n groups are pending, so n is 0 or more, not -1"]);
  });

  it("is a statement, not a value", () => {
    expectError(K("out[0] = f32(cpAsyncCommit());"), "GK3018 5:16 cpAsyncCommit() has no value; call it as a statement: 'cpAsyncCommit();'");
  });
});
