import { describe, expect, it } from "vitest";
import { kernel, printed } from "../../helpers.js";

describe("constant folding", () => {
  it("folds typed operations with the kernel's own semantics", () => {
    const ir = printed(kernel("  iout[0] = i32(2147483647) + i32(1);\n  out[0] = sqrt(f32(2));\n  iout[1] = i32(u32(7) >>> 1);"));
    expect(ir).toContain("iout[0:i32] = -2147483648:i32;");
    expect(ir).toContain(`out[0:i32] = ${Math.fround(Math.SQRT2)}:f32;`);
    expect(ir).toContain("iout[1:i32] = 3:i32;");
  });
  it("leaves division by zero for run time to report", () => {
    expect(printed(kernel("  iout[0] = n / (n - n);\n  iout[1] = i32(1) / i32(0);"))).toContain("iout[1:i32] = 1:i32 /.i32 0:i32;");
  });
  it("short-circuits constant conditions without dropping effects", () => {
    const ir = printed(kernel("  if (false) { out[0] = 1.0; }\n  if (true && b) { out[1] = 2.0; }\n  let c = true ? n : n + 1;"));
    expect(ir).not.toContain("out[0]");
    expect(ir).toContain("if (b) {");
    expect(ir).toContain("let c: i32 = n;");
  });
  it("folds lanes and swizzles of vectors of constants, so that a zero divisor is seen as one", () => {
    const ir = printed(kernel("  out[0] = out[1] / f32x4(-0.0).w;\n  out[2] = f32x3(1.0, 2.0, 3.0).zyx.x + f32(i32x2(4, n).x);\n  out[3] = f32x2(f32(n)).y;"));
    expect(ir).toContain("out[0:i32] = out[1:i32] /.f32 -0:f32;");
    expect(ir).toContain("out[2:i32] = 3:f32 +.f32 f32(i32x2{4:i32, n}.x);"); // only vectors of constants fold
    expect(ir).toContain("out[3:i32] = f32x2{f32(n)}.y;");
  });
  it("keeps -0 and NaN", () => {
    const ir = printed(kernel("  out[0] = -f32(0);\n  out[1] = f32(0) / f32(0);"));
    expect(ir).toContain("out[0:i32] = -0:f32;");
    expect(ir).toContain("out[1:i32] = NaN:f32;");
  });
});
