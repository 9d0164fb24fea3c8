/**
 * gk's meaning in the generated WGSL, construct by construct (spec/wgsl.md, Semantics):
 * inline snapshots of small kernels. (Each was checked valid by Dawn's null backend when
 * written; validate.test.ts checks every example's and spec/ok program's shader on each run.)
 */
import { describe, expect, it } from "vitest";
import { emitWgsl } from "../../../src/codegen/wgsl/index.js";
import { WGSL_TARGET } from "../../../src/codegen/wgsl/target.js";
import { formatDiagnostics } from "../../../src/diagnostics/format.js";
import { memoryHost } from "../../../src/load/program.js";
import { frontEnd } from "../../../src/pipeline.js";

/** The WGSL of `src` after its fixed preamble (the header and the block-size overrides). */
function wgslOf(src: string): string {
  const r = frontEnd("test.gk", { host: memoryHost({ "test.gk": src }), target: WGSL_TARGET });
  if (!r.ir) throw new Error(formatDiagnostics(r.diagnostics, r.sources));
  return emitWgsl(r.ir).source.split("\n").slice(6).join("\n");
}

describe("WGSL semantics", () => {
  it("abs of i32 is u32 arithmetic (gk_abs_i32), keeping abs(-2^31) = -2^31 where SPIR-V's SAbs need not", () => {
    const w = wgslOf(`device_kernel k(x: readonly global<i32>, out: global<i32>, v: global<i32x2>, f: global<f32>) {
  out[0] = abs(x[0]);
  v[0] = abs(v[1]);
  f[0] = abs(f[1]);
}`);
    expect(w).toContain("out[0i] = gk_abs_i32(x[0i]);");
    expect(w).toContain("fn gk_abs_i32(x: i32) -> i32 {\n  let m = bitcast<u32>(x >> u32(31u));\n  return bitcast<i32>((bitcast<u32>(x) ^ m) - m);\n}");
    expect(w).toContain("gk_abs_vec2_i32(v[1i])");
    expect(w).toContain("f[0i] = abs(f[1i]);");
  });

  it("integer division and remainder by zero yield 0; shifts count modulo 32; float % is fmod; -u32 wraps", () => {
    expect(
      wgslOf(`device_kernel k(a: i32, b: u32, out: global<i32>, u: global<u32>, f: global<f32>) {
  out[0] = a / out[1];
  out[1] = a % 7;
  out[2] = a / -1;
  u[0] = b / u[1];
  out[3] = a << out[4];
  u[2] = b >> u[3];
  out[5] = a >> 3;
  f[0] = f[1] % f[2];
  u[4] = -b;
}`),
    ).toMatchInlineSnapshot(`
      "struct gk_Params_k {
        p0: i32,
        p1: u32,
      }
      @group(0) @binding(0) var<uniform> gk_params_k: gk_Params_k;
      @group(0) @binding(1) var<storage, read_write> out: array<i32>;
      @group(0) @binding(2) var<storage, read_write> u: array<u32>;
      @group(0) @binding(3) var<storage, read_write> f: array<f32>;

      fn gk_div_i32(a: i32, b: i32) -> i32 {
        return select(a / b, i32(0), b == i32(0));
      }

      fn gk_div_u32(a: u32, b: u32) -> u32 {
        return select(a / b, u32(0), b == u32(0));
      }

      fn gk_isnan_f32(x: f32) -> bool {
        return (bitcast<u32>(x) & u32(0x7fffffffu)) > u32(0x7f800000u);
      }

      fn gk_isinf_f32(x: f32) -> bool {
        return (bitcast<u32>(x) & u32(0x7fffffffu)) == u32(0x7f800000u);
      }

      fn gk_copysign_f32(x: f32, y: f32) -> f32 {
        return bitcast<f32>((bitcast<u32>(x) & u32(0x7fffffffu)) | (bitcast<u32>(y) & u32(0x80000000u)));
      }

      fn gk_f32_from_bits(b: u32) -> f32 {
        return bitcast<f32>(b);
      }

      fn gk_fmod_f32(x: f32, y: f32) -> f32 {
        if (gk_isnan_f32(x) || gk_isnan_f32(y) || gk_isinf_f32(x) || y == 0.0f) { return gk_f32_from_bits(0x7fc00000u); }
        let ay = abs(y);
        if (gk_isinf_f32(y) || abs(x) < ay) { return x; }
        var r = abs(x);
        let ey = frexp(ay).exp;
        loop {
          if (r < ay) { break; }
          var s = ldexp(ay, frexp(r).exp - ey);
          if (s > r) { s = s * 0.5f; }
          r = r - s;
        }
        return gk_copysign_f32(r, x);
      }

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        let a: i32 = gk_params_k.p0;
        let b: u32 = gk_params_k.p1;
        out[0i] = gk_div_i32(a, out[1i]);
        out[1i] = a % 7i;
        out[2i] = gk_div_i32(a, -1i);
        u[0i] = gk_div_u32(b, u[1i]);
        out[3i] = a << (u32(out[4i]) & 31u);
        u[2i] = b >> (u[3i] & 31u);
        out[5i] = a >> 3u;
        f[0i] = gk_fmod_f32(f[1i], f[2i]);
        u[4i] = u32(0u) - b;
      }
      "
    `);
  });

  it("float to int saturates and maps NaN to 0, int to float rounds once; min and max order -0 below +0 and skip NaN; round goes away from zero", () => {
    expect(
      wgslOf(`device_kernel k(x: f32, out: global<i32>, u: global<u32>, f: global<f32>, b: global<i32>) {
  out[0] = i32(x);
  u[0] = u32(x);
  f[0] = min(x, f[1]) + max(x, f[2]) + round(x) + clamp(x, 0.0, 1.0);
  b[0] = i32(isnan(x)) + i32(isinf(f[3]));
  f[4] = copysign(x, f[5]);
  f[6] = f32(out[1]) + f32(u[1]);
}`),
    ).toMatchInlineSnapshot(`
      "struct gk_Params_k {
        p0: f32,
      }
      @group(0) @binding(0) var<uniform> gk_params_k: gk_Params_k;
      @group(0) @binding(1) var<storage, read_write> out: array<i32>;
      @group(0) @binding(2) var<storage, read_write> u: array<u32>;
      @group(0) @binding(3) var<storage, read_write> f: array<f32>;
      @group(0) @binding(4) var<storage, read_write> b: array<i32>;

      fn gk_isnan_f32(x: f32) -> bool {
        return (bitcast<u32>(x) & u32(0x7fffffffu)) > u32(0x7f800000u);
      }

      fn gk_f32_to_i32(x: f32) -> i32 {
        let inRange = i32(clamp(x, f32(-2147483648.0f), f32(2147483520.0f)));
        return select(select(select(inRange, i32(2147483647i), x >= f32(2147483648.0f)), i32(i32(-2147483648)), x <= f32(-2147483648.0f)), i32(0i), gk_isnan_f32(x));
      }

      fn gk_f32_to_u32(x: f32) -> u32 {
        let inRange = u32(clamp(x, f32(0.0f), f32(4294967040.0f)));
        return select(select(select(inRange, u32(4294967295u), x >= f32(4294967296.0f)), u32(0u), x <= f32(0.0f)), u32(0u), gk_isnan_f32(x));
      }

      fn gk_min_f32(a: f32, b: f32) -> f32 {
        let r = select(select(b, a, a < b), select(b, a, (bitcast<u32>(a) & u32(0x80000000u)) != u32(0u)), a == b);
        return select(select(r, a, gk_isnan_f32(b)), b, gk_isnan_f32(a));
      }

      fn gk_max_f32(a: f32, b: f32) -> f32 {
        let r = select(select(b, a, a > b), select(b, a, (bitcast<u32>(a) & u32(0x80000000u)) == u32(0u)), a == b);
        return select(select(r, a, gk_isnan_f32(b)), b, gk_isnan_f32(a));
      }

      fn gk_round_f32(x: f32) -> f32 {
        let t = trunc(x);
        return select(t, t + sign(x), abs(x - t) >= f32(0.5f));
      }

      fn gk_isinf_f32(x: f32) -> bool {
        return (bitcast<u32>(x) & u32(0x7fffffffu)) == u32(0x7f800000u);
      }

      fn gk_copysign_f32(x: f32, y: f32) -> f32 {
        return bitcast<f32>((bitcast<u32>(x) & u32(0x7fffffffu)) | (bitcast<u32>(y) & u32(0x80000000u)));
      }

      fn gk_i32_to_f32(x: i32) -> f32 {
        return f32(x >> u32(16u)) * f32(65536.0f) + f32(x & i32(0xffffi));
      }

      fn gk_u32_to_f32(x: u32) -> f32 {
        return f32(x >> u32(16u)) * f32(65536.0f) + f32(x & u32(0xffffu));
      }

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        let x: f32 = gk_params_k.p0;
        out[0i] = gk_f32_to_i32(x);
        u[0i] = gk_f32_to_u32(x);
        f[0i] = gk_min_f32(x, f[1i]) + gk_max_f32(x, f[2i]) + gk_round_f32(x) + gk_min_f32(gk_max_f32(x, 0.0f), 1.0f);
        b[0i] = select(i32(0i), i32(1i), gk_isnan_f32(x)) + select(i32(0i), i32(1i), gk_isinf_f32(f[3i]));
        f[4i] = gk_copysign_f32(x, f[5i]);
        f[6i] = gk_i32_to_f32(out[1i]) + gk_u32_to_f32(u[1i]);
      }
      "
    `);
  });

  it("writes f32 constants exactly: decimals, hexadecimal floats, -0, infinities and NaN from their bits", () => {
    expect(
      wgslOf(`device_kernel k(f: global<f32>, i: global<i32>) {
  f[0] = 2.5;
  f[1] = 0.1;
  f[2] = -0.0;
  f[3] = Infinity;
  f[4] = -Infinity;
  f[5] = NaN;
  f[6] = 1.0e-45;
  i[0] = -2147483648;
  i[1] = 2147483647;
}`),
    ).toMatchInlineSnapshot(`
      "@group(0) @binding(0) var<storage, read_write> f: array<f32>;
      @group(0) @binding(1) var<storage, read_write> i: array<i32>;

      fn gk_f32_from_bits(b: u32) -> f32 {
        return bitcast<f32>(b);
      }

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        f[0i] = 2.5f;
        f[1i] = 0x1.99999ap-4f;
        f[2i] = gk_f32_from_bits(0x80000000u);
        f[3i] = gk_f32_from_bits(0x7f800000u);
        f[4i] = gk_f32_from_bits(0xff800000u);
        f[5i] = gk_f32_from_bits(0x7fc00000u);
        f[6i] = 0x1p-149f;
        i[0i] = i32(-2147483648);
        i[1i] = 2147483647i;
      }
      "
    `);
  });

  it("evaluates a ?: branch that writes memory only when chosen, after the operands before it", () => {
    expect(
      wgslOf(`device_fn bump(a: global<i32>): i32 {
  a[0] = a[0] + 1;
  return a[0];
}
device_kernel k(c: bool, a: global<i32>, out: global<i32>) {
  out[0] = a[0] + (c ? bump(a) : 0);
  out[1] = c ? 1 : 2;
}`),
    ).toMatchInlineSnapshot(`
      "struct gk_Params_k {
        p0: u32,
      }
      @group(0) @binding(0) var<uniform> gk_params_k: gk_Params_k;
      @group(0) @binding(1) var<storage, read_write> a: array<i32>;
      @group(0) @binding(2) var<storage, read_write> out: array<i32>;

      fn bump() -> i32 {
        a[0i] = a[0i] + 1i;
        return a[0i];
      }

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        let c: bool = (gk_params_k.p0 != 0u);
        let gk_t1: i32 = a[0i];
        var gk_t2: i32;
        if (c) {
          gk_t2 = bump();
        } else {
          gk_t2 = 0i;
        }
        out[0i] = gk_t1 + gk_t2;
        out[1i] = select(2i, 1i, c);
      }
      "
    `);
  });

  it("chooses between structs with an if (WGSL's select takes scalars and vectors only)", () => {
    expect(
      wgslOf(`struct P { a: f32, b: i32 }
device_kernel k(c: bool, p: P, q: P, out: global<P>) {
  out[0] = c ? p : q;
}`),
    ).toMatchInlineSnapshot(`
      "struct P {
        a: f32,
        b: i32,
      }

      struct gk_Params_k {
        p0: u32,
        p1: f32,
        p2: i32,
        p3: f32,
        p4: i32,
      }
      @group(0) @binding(0) var<uniform> gk_params_k: gk_Params_k;
      @group(0) @binding(1) var<storage, read_write> out: array<P>;

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        let c: bool = (gk_params_k.p0 != 0u);
        let p: P = P(gk_params_k.p1, gk_params_k.p2);
        let q: P = P(gk_params_k.p3, gk_params_k.p4);
        var gk_t1: P;
        if (c) {
          gk_t1 = p;
        } else {
          gk_t1 = q;
        }
        out[0i] = gk_t1;
      }
      "
    `);
  });

  it("atomics: i32 natively, f32 by compare-exchange loops, CAS retried until it fails on another value", () => {
    expect(
      wgslOf(`device_kernel k(h: global<i32>, f: global<f32>, out: global<i32>) {
  shared s: f32[4];
  s[threadIdx.x % 4] = 0.0;
  barrier();
  atomicAdd(h, 0, 1);
  out[0] = atomicCAS(h, 1, 0, 5);
  atomicAdd(f, 0, 1.5);
  atomicMax(s, 0, f[1]);
  atomicExch(f, 2, 2.0);
  barrier();
  f[3] = s[0] + f[4];
}`),
    ).toMatchInlineSnapshot(`
      "@group(0) @binding(0) var<storage, read_write> h: array<atomic<i32>>;
      @group(0) @binding(1) var<storage, read_write> f: array<atomic<u32>>;
      @group(0) @binding(2) var<storage, read_write> out: array<i32>;
      var<workgroup> s: array<atomic<u32>, 4>;

      fn gk_atomicCAS_h(i0: i32, compare: i32, v: i32) -> i32 {
        loop {
          let r = atomicCompareExchangeWeak(&h[i0], compare, v);
          if (r.exchanged || r.old_value != compare) { return r.old_value; }
        }
      }

      fn gk_ftz_f32(x: f32) -> f32 {
        let b = bitcast<u32>(x);
        return select(x, bitcast<f32>(b & 0x80000000u), (b & 0x7f800000u) == 0u);
      }

      fn gk_atomicAdd_f(i0: i32, v: f32) -> f32 {
        var old = atomicLoad(&f[i0]);
        loop {
          let r = atomicCompareExchangeWeak(&f[i0], old, bitcast<u32>(gk_ftz_f32(gk_ftz_f32(bitcast<f32>(old)) + gk_ftz_f32(v))));
          if (r.exchanged) { return bitcast<f32>(old); }
          old = r.old_value;
        }
      }

      fn gk_isnan_f32(x: f32) -> bool {
        return (bitcast<u32>(x) & u32(0x7fffffffu)) > u32(0x7f800000u);
      }

      fn gk_max_f32(a: f32, b: f32) -> f32 {
        let r = select(select(b, a, a > b), select(b, a, (bitcast<u32>(a) & u32(0x80000000u)) == u32(0u)), a == b);
        return select(select(r, a, gk_isnan_f32(b)), b, gk_isnan_f32(a));
      }

      fn gk_atomicMax_s(i0: i32, v: f32) -> f32 {
        var old = atomicLoad(&s[i0]);
        loop {
          let r = atomicCompareExchangeWeak(&s[i0], old, bitcast<u32>(gk_max_f32(bitcast<f32>(old), v)));
          if (r.exchanged) { return bitcast<f32>(old); }
          old = r.old_value;
        }
      }

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        atomicStore(&s[i32(gk_local_id.x) % 4i], bitcast<u32>(0.0f));
        workgroupBarrier();
        _ = atomicAdd(&h[0i], 1i);
        out[0i] = gk_atomicCAS_h(1i, 0i, 5i);
        _ = gk_atomicAdd_f(0i, 1.5f);
        _ = gk_atomicMax_s(0i, bitcast<f32>(atomicLoad(&f[1i])));
        _ = bitcast<f32>(atomicExchange(&f[2i], bitcast<u32>(2.0f)));
        storageBarrier();
        workgroupBarrier();
        atomicStore(&f[3i], bitcast<u32>(bitcast<f32>(atomicLoad(&s[0i])) + bitcast<f32>(atomicLoad(&f[4i]))));
      }
      "
    `);
  });

  it("lays structs out at gk's offsets, and assembles struct parameters from the uniform block", () => {
    expect(
      wgslOf(`struct P { pos: f32x3, mass: f32, tag: i32, w: f32x2 }
device_kernel k(p: P, flag: bool, ps: global<P>) {
  if (flag) { ps[0] = p; }
  ps[1].pos.y = p.mass;
}`),
    ).toMatchInlineSnapshot(`
      "struct P {
        @size(16) pos: vec3<f32>,
        mass: f32,
        tag: i32,
        w: vec2<f32>,
      }

      struct gk_Params_k {
        p0: f32,
        p1: f32,
        p2: f32,
        p3: f32,
        p4: i32,
        p5: f32,
        p6: f32,
        p7: u32,
      }
      @group(0) @binding(0) var<uniform> gk_params_k: gk_Params_k;
      @group(0) @binding(1) var<storage, read_write> ps: array<P>;

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        let p: P = P(vec3<f32>(gk_params_k.p0, gk_params_k.p1, gk_params_k.p2), gk_params_k.p3, gk_params_k.p4, vec2<f32>(gk_params_k.p5, gk_params_k.p6));
        let flag: bool = (gk_params_k.p7 != 0u);
        if (flag) {
          ps[0i] = p;
        }
        ps[1i].pos.y = p.mass;
      }
      "
    `);
  });

  it("writes a device function once per set of arrays it is given, naming them", () => {
    expect(
      wgslOf(`device_fn first(a: readonly global<f32>): f32 { return a[0]; }
device_fn twice(x: f32): f32 { return x * 2.0; }
device_kernel k(x: readonly global<f32>, y: readonly global<f32>, out: global<f32>) {
  out[0] = twice(first(x) + first(y));
}`),
    ).toMatchInlineSnapshot(`
      "@group(0) @binding(0) var<storage, read> x: array<f32>;
      @group(0) @binding(1) var<storage, read> y: array<f32>;
      @group(0) @binding(2) var<storage, read_write> out: array<f32>;

      fn twice(x_1: f32) -> f32 {
        return x_1 * 2.0f;
      }

      fn first() -> f32 {
        return x[0i];
      }

      fn first_1() -> f32 {
        return y[0i];
      }

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        out[0i] = twice(first() + first_1());
      }
      "
    `);
  });

  it("dynamic shared arrays are override-sized workgroup arrays; do-while tests last; local arrays start from their initializers", () => {
    expect(
      wgslOf(`device_kernel k(out: global<f32>) {
  shared buf: f32[];
  let t = [1.0, 2.0, 3.0];
  let i = 0;
  do { buf[threadIdx.x] = t[i % 3]; i += 1; } while (i < 3);
  barrier();
  out[threadIdx.x] = buf[0];
}`),
    ).toMatchInlineSnapshot(`
      "@group(0) @binding(0) var<storage, read_write> out: array<f32>;
      override gk_len_k_buf: u32 = 1u;
      var<workgroup> buf: array<f32, gk_len_k_buf>;

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        var t = array<f32, 3>(1.0f, 2.0f, 3.0f);
        var i: i32 = 0i;
        {
          loop {
            buf[i32(gk_local_id.x)] = t[i % 3i];
            i = i + 1i;
            continuing {
              break if !(i < 3i);
            }
          }
        }
        workgroupBarrier();
        out[i32(gk_local_id.x)] = buf[0i];
      }
      "
    `);
  });

  it("a barrier orders global memory (storageBarrier) only where a global array is written before it, or read before it and written after it", () => {
    expect(
      wgslOf(`device_kernel k(x: readonly global<i32>, io: global<i32>, out: global<i32>) {
  shared s: i32[4];
  s[threadIdx.x] = x[threadIdx.x];
  barrier();
  const old = io[threadIdx.x];
  barrier();
  io[(threadIdx.x + 1) % 4] = old + s[0];
  barrier();
  out[threadIdx.x] = io[threadIdx.x];
}`),
    ).toMatchInlineSnapshot(`
      "@group(0) @binding(0) var<storage, read> x: array<i32>;
      @group(0) @binding(1) var<storage, read_write> io: array<i32>;
      @group(0) @binding(2) var<storage, read_write> out: array<i32>;
      var<workgroup> s: array<i32, 4>;

      @compute @workgroup_size(gk_block_x, gk_block_y, gk_block_z)
      fn k(@builtin(local_invocation_id) gk_local_id: vec3<u32>, @builtin(workgroup_id) gk_group_id: vec3<u32>, @builtin(num_workgroups) gk_num_groups: vec3<u32>, @builtin(local_invocation_index) gk_local_index: u32) {
        s[i32(gk_local_id.x)] = x[i32(gk_local_id.x)];
        workgroupBarrier();
        let old: i32 = io[i32(gk_local_id.x)];
        storageBarrier();
        workgroupBarrier();
        io[(i32(gk_local_id.x) + 1i) % 4i] = old + s[0i];
        storageBarrier();
        workgroupBarrier();
        out[i32(gk_local_id.x)] = io[i32(gk_local_id.x)];
      }
      "
    `);
  });
});
