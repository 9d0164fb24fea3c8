/** The checker on bitcast<T>(v) (src/check/bitcast.ts): its types, its constants, its errors. */
import { describe, expect, it } from "vitest";
import { expectError, kernel, printed } from "../helpers.js";

describe("bitcast<T>(v)", () => {
  it("is a bitcast node between types of one size, scalars and vectors", () => {
    const ir = printed(kernel("const a = bitcast<u32>(f);\nconst h = bitcast<f16x2>(a);\nconst w = bitcast<u32x2>(d);\niout[0] = bitcast<i32>(h) + i32(w.x);"));
    expect(ir).toContain("bitcast<u32>(f)");
    expect(ir).toContain("bitcast<f16x2>(a)");
    expect(ir).toContain("bitcast<u32x2>(d)");
    expect(ir).toContain("bitcast<i32>(h)");
  });

  it("types an untyped constant by the result's width: an unsigned, signed or float constant of it", () => {
    const ir = printed(kernel("out[0] = bitcast<f32>(0x7fc00001);\nout[1] = bitcast<f32>(-1);\niout[0] = bitcast<i32>(1.0);"));
    // Folded where the result is no NaN; a NaN's bits stay in the bitcast, as constants of NaN are canonical.
    expect(ir).toContain("bitcast<f32>(2143289345:u32)");
    expect(ir).toContain("bitcast<f32>(-1:i32)");
    expect(ir).toContain("1065353216");
  });

  it("takes a type parameter as its type", () => {
    const src = "device_fn bits<T: f32 | i32>(x: T): u32 { return bitcast<u32>(x); }\ndevice_fn back<T: f32 | i32>(x: u32): T { return bitcast<T>(x); }\ndevice_kernel k(out: global<u32>, f: f32) { out[0] = bits(f) + bits(i32(1)) + u32(back<i32>(3)); }\n";
    expect(printed(src)).toContain("bitcast<u32>(x)");
  });

  it("refuses types of different sizes, naming both sizes and the types of the operand's", () => {
    expectError(kernel("iout[0] = bitcast<i32>(d);"), "GK3020 3:11 bitcast needs types of one size, but 'd' is f64 (64 bits) and i32 is 32 bits; f64 can become i64, u64, i32x2, u32x2, f32x2, f16x4 or bf16x4");
    expectError(kernel("let v = bitcast<f32x3>(f32x4(f));"), "GK3020 3:9 bitcast needs types of one size, but 'f32x4(f)' is f32x4 (128 bits) and f32x3 is 96 bits");
  });

  it("refuses bool, structs and a missing or extra type", () => {
    expectError(kernel("iout[0] = i32(bitcast<u8>(b));"), "GK3010 3:27 bitcast reinterprets numbers and vectors of numbers, but 'b' is bool");
    expectError(kernel("let c = bitcast<bool>(u8(1));"), "GK3010 3:17 bitcast gives numbers and vectors of numbers, not bool");
    expectError(kernel("iout[0] = bitcast(f);"), "GK3030 3:11 bitcast takes one type, the result's: write bitcast<u32>(x)");
    expectError(kernel("iout[0] = bitcast<i32, u32>(f);"), "GK3030 3:18 bitcast takes one type");
    expectError(kernel("iout[0] = bitcast<n>(f);"), "GK3031 3:19 bitcast's type argument is the result's type");
    expectError(kernel("iout[0] = bitcast<i32>(f, f);"), "GK3004 3:11 bitcast<T>(v) takes 1 argument, but 2 were given");
  });

  it("is a reserved name", () => {
    expectError("device_fn bitcast(x: f32): f32 { return x; }\n", "GK2009");
  });
});
