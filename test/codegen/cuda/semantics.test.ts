/**
 * One test per semantic rule of the CUDA backend: the CUDA a small program must produce, a
 * fragment where the rule is one line, the whole module as an inline snapshot where the rule is
 * how functions and the helpers they use are written out. Each rule is the spec's
 * (src/ir/evalOp.ts is its executable definition), never C++'s undefined behaviour.
 * nvcc.test.ts compiles all of this for real.
 */
import { describe, expect, it } from "vitest";
import { kernel } from "../../helpers.js";
import { fromTemplate, PREC } from "../../../src/codegen/cuda/expr.js";
import { builtins, type MathEntry } from "../../../src/ir/builtins.js";
import { CUDA_ATOMICS, CUDA_MATH } from "../../../src/codegen/cuda/builtins.js";
import { call, fill, raw } from "../../../src/ir/templates.js";
import { T } from "../../../src/ir/types.js";
import { bodyOf, cudaModule, cudaOf, cudaWithLines, expectCuda, kernelBody } from "./helpers.js";
import { bin, c, i32, storesOf } from "./ir.js";

/** A kernel `k` with one output array per type, around some statements. */
function typed(body: string): string {
  return `device_kernel k(i: i32, j: i32, u: u32, v: u32, l: i64, m: i64, ul: u64, um: u64, f: f32, g: f32,
  d: f64, e: f64, b: bool, c: bool, oi: global<i32>, ou: global<u32>, ol: global<i64>, oul: global<u64>,
  of: global<f32>, od: global<f64>, ob: global<bool>) {
${body}
}
`;
}

describe("types", () => {
  it("maps every scalar type, writable global arrays to __restrict__ pointers and readonly ones to const pointers", () => {
    expectCuda(
      "device_kernel k(a: bool, b: i32, c: u32, d: i64, e: u64, f: f32, g: f64, x: readonly global<f64>, y: global<u64>) { y[0] = e; }",
      'extern "C" __global__ void k(bool a, int b, unsigned int c, long long d, unsigned long long e, float f, double g, const double* x, unsigned long long* __restrict__ y) {',
    );
  });
});

describe("integer arithmetic wraps", () => {
  it("computes signed + - * in the unsigned type and converts back once", () => {
    expect(kernelBody(typed("oi[0] = i + j * 3 - 7;"))).toBe("oi[0] = (int)((unsigned int)i + (unsigned int)j * 3u - 7u);");
    expect(kernelBody(typed("ol[0] = l * m + l;"))).toBe("ol[0] = (long long)((unsigned long long)l * (unsigned long long)m + (unsigned long long)l);");
  });

  it("negates signed values through unsigned", () => {
    expect(kernelBody(typed("oi[0] = -i;"))).toBe("oi[0] = (int)(0u - (unsigned int)i);");
    expect(kernelBody(typed("ol[0] = -l;"))).toBe("ol[0] = (long long)(0ull - (unsigned long long)l);");
  });

  it("writes an added negative constant as a subtraction of the same bits", () => {
    expect(kernelBody(typed("oi[0] = i + -5;"))).toBe("oi[0] = (int)((unsigned int)i - 5u);");
    expect(kernelBody(typed("oi[0] = i * -5;"))).toBe("oi[0] = (int)((unsigned int)i * (unsigned int)-5);");
  });

  it("leaves unsigned arithmetic plain", () => {
    expect(kernelBody(typed("ou[0] = u * v + 1 - u; oul[0] = ul * um; ou[1] = -u;"))).toBe(
      "ou[0] = u * v + 1u - u;\noul[0] = ul * um;\nou[1] = -u;",
    );
  });

  it("reads CUDA's unsigned index variables directly inside wrapping arithmetic", () => {
    expect(kernelBody(typed("oi[0] = threadIdx.x + blockIdx.y * 16;"))).toBe("oi[0] = (int)(threadIdx.x + blockIdx.y * 16u);");
    expect(kernelBody(typed("oi[0] = threadIdx.x;"))).toBe("oi[0] = (int)threadIdx.x;");
    expect(kernelBody(typed("oi[0] = globalId.z;"))).toBe("oi[0] = (int)(blockIdx.z * blockDim.z + threadIdx.z);");
  });
});

describe("shifts", () => {
  it("takes the count modulo the bit width", () => {
    expect(kernelBody(typed("oi[0] = i << j; oi[1] = i >> j; ou[0] = u << v; ou[1] = u >> v;"))).toBe(
      ["oi[0] = (int)((unsigned int)i << (j & 31));", "oi[1] = i >> (j & 31);", "ou[0] = u << (v & 31u);", "ou[1] = u >> (v & 31u);"].join("\n"),
    );
    expect(kernelBody(typed("ol[0] = l << m; oul[0] = ul >> um;"))).toBe(
      "ol[0] = (long long)((unsigned long long)l << (m & 63ll));\noul[0] = ul >> (um & 63ull);",
    );
  });

  it("reduces a constant count", () => {
    expect(bodyOf(storesOf(T.i32, (x) => [bin("shl", x, i32(33)), bin("shr", x, i32(-1))]))).toBe("out[0] = (int)((unsigned int)x << 1);\nout[1] = x >> 31;");
    expect(bodyOf(storesOf(T.u64, (x) => [bin("shl", x, c(T.u64, 65n))]))).toBe("out[0] = x << 1;");
  });

  it("shifts signed values right arithmetically, and >>> through unsigned", () => {
    expect(kernelBody(typed("oi[0] = i >> 3; oi[1] = i >>> 3;"))).toBe("oi[0] = i >> 3;\noi[1] = (int)((unsigned int)i >> 3);");
  });
});

describe("integer division and remainder", () => {
  it("calls helpers that define x / 0, x % 0, MIN / -1 and MIN % -1", () => {
    const src = typed("oi[0] = i / j; oi[1] = i % j; ou[0] = u / v; ou[1] = u % v; ol[0] = l / m; oul[0] = ul % um;");
    // Only the helpers used, each defined once.
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "// gk's integer division and remainder: they round toward zero; the most negative value divided
      // by -1 wraps to itself, and its remainder is 0. Dividing by zero yields 0 here, on the GPU, where
      // nothing can trap; the simulator reports it as an error instead.
      static __device__ __forceinline__ int gk_div_i32(int a, int b) { return b == 0 ? 0 : b == -1 ? (int)(0u - (unsigned int)a) : a / b; }
      static __device__ __forceinline__ int gk_rem_i32(int a, int b) { return b == 0 || b == -1 ? 0 : a % b; }
      static __device__ __forceinline__ unsigned int gk_div_u32(unsigned int a, unsigned int b) { return b == 0u ? 0u : a / b; }
      static __device__ __forceinline__ unsigned int gk_rem_u32(unsigned int a, unsigned int b) { return b == 0u ? 0u : a % b; }
      static __device__ __forceinline__ long long gk_div_i64(long long a, long long b) { return b == 0ll ? 0ll : b == -1ll ? (long long)(0ull - (unsigned long long)a) : a / b; }
      static __device__ __forceinline__ unsigned long long gk_rem_u64(unsigned long long a, unsigned long long b) { return b == 0ull ? 0ull : a % b; }

      extern "C" __global__ void k(int i, int j, unsigned int u, unsigned int v, long long l, long long m, unsigned long long ul, unsigned long long um, float f, float g, double d, double e, bool b, bool c, int* __restrict__ oi, unsigned int* __restrict__ ou, long long* __restrict__ ol, unsigned long long* __restrict__ oul, float* __restrict__ of, double* __restrict__ od, bool* __restrict__ ob) {
        oi[0] = gk_div_i32(i, j);
        oi[1] = gk_rem_i32(i, j);
        ou[0] = gk_div_u32(u, v);
        ou[1] = gk_rem_u32(u, v);
        ol[0] = gk_div_i64(l, m);
        oul[0] = gk_rem_u64(ul, um);
      }"
    `);
  });

  it("divides plainly by a constant that can neither trap nor overflow", () => {
    const body = kernelBody(typed("oi[0] = i / 16; oi[1] = i % -3; oi[2] = i / -1; ou[0] = u / 0; ou[1] = u % 7;"));
    expect(body).toBe("oi[0] = i / 16;\noi[1] = i % -3;\noi[2] = gk_div_i32(i, -1);\nou[0] = gk_div_u32(u, 0u);\nou[1] = u % 7u;");
  });

  it("emits no helper when nothing divides", () => {
    expect(cudaOf(typed("oi[0] = i + j;"))).not.toContain("gk_");
  });
});

describe("floats", () => {
  it("uses plain operators, and fmodf / fmod for %", () => {
    expect(kernelBody(typed("of[0] = f * g + f / g - f; of[1] = f % g; od[0] = d % e;"))).toBe(
      "of[0] = f * g + f / g - f;\nof[1] = fmodf(f, g);\nod[0] = fmod(d, e);",
    );
  });

  it("divides by a constant zero through its bits (IEEE defines it; nvcc warns about a literal)", () => {
    expect(kernelBody(typed("of[0] = f / 0.0; od[0] = d / -0.0;"))).toBe(
      "of[0] = f / __int_as_float(0);\nod[0] = d / __longlong_as_double(0x8000000000000000ll);",
    );
  });
});

describe("conversions", () => {
  it("converts floats to integers truncating, saturating, NaN to 0", () => {
    expect(kernelBody(typed("oi[0] = i32(f); ou[0] = u32(f); ol[0] = i64(f); oul[0] = u64(f);"))).toBe(
      "oi[0] = gk_f32_to_i32(f);\nou[0] = gk_f32_to_u32(f);\nol[0] = gk_f32_to_i64(f);\noul[0] = gk_f32_to_u64(f);",
    );
    expect(kernelBody(typed("oi[0] = i32(d); ou[0] = u32(d); ol[0] = i64(d); oul[0] = u64(d);"))).toBe(
      "oi[0] = gk_f64_to_i32(d);\nou[0] = gk_f64_to_u32(d);\nol[0] = gk_f64_to_i64(d);\noul[0] = gk_f64_to_u64(d);",
    );
    // NaN first: on sm_90 several __*2*_rz intrinsics turn NaN into the most negative value.
    expectCuda("device_kernel k(d: f64, o: global<i64>) { o[0] = i64(d); }", "static __device__ __forceinline__ long long gk_f64_to_i64(double x) { return x != x ? 0ll : __double2ll_rz(x); }");
  });

  it("rounds integers to floats once, to nearest", () => {
    expect(kernelBody(typed("of[0] = f32(i); of[1] = f32(u); of[2] = f32(l); of[3] = f32(ul); od[0] = f64(l); od[1] = f64(ul);"))).toBe(
      "of[0] = (float)i;\nof[1] = (float)u;\nof[2] = __ll2float_rn(l);\nof[3] = __ull2float_rn(ul);\nod[0] = (double)l;\nod[1] = (double)ul;",
    );
  });

  it("converts between floats", () => {
    expect(kernelBody(typed("of[0] = f32(d); od[0] = f64(f);"))).toBe("of[0] = __double2float_rn(d);\nod[0] = (double)f;");
  });

  it("wraps or extends between integers", () => {
    expect(kernelBody(typed("oi[0] = i32(l); ou[0] = u32(i); oul[0] = u64(i); ol[0] = i64(u); oi[1] = i32(ul);"))).toBe(
      "oi[0] = (int)l;\nou[0] = (unsigned int)i;\noul[0] = (unsigned long long)i;\nol[0] = (long long)u;\noi[1] = (int)ul;",
    );
  });

  it("converts to bool with != 0 and from bool with ? 1 : 0", () => {
    expect(kernelBody(typed("ob[0] = bool(i); ob[1] = bool(f); ob[2] = bool(ul); oi[0] = i32(b); of[0] = f32(b); oul[0] = u64(b);"))).toBe(
      "ob[0] = i != 0;\nob[1] = f != 0.0f;\nob[2] = ul != 0ull;\noi[0] = b ? 1 : 0;\nof[0] = b ? 1.0f : 0.0f;\noul[0] = b ? 1ull : 0ull;",
    );
  });

  it("computes a signed value's unsigned bits in the unsigned type", () => {
    expect(kernelBody(typed("ou[0] = u32(i + 1); oul[0] = u64(l * m);"))).toBe(
      "ou[0] = (unsigned int)i + 1u;\noul[0] = (unsigned long long)l * (unsigned long long)m;",
    );
  });
});

describe("comparisons and logic", () => {
  it("compares, short-circuits and selects with C++'s operators", () => {
    expect(kernelBody(typed("ob[0] = i < j && f >= g || !b; oi[0] = b ? i : j; ob[1] = b == c;"))).toBe(
      "ob[0] = (i < j && f >= g) || !b;\noi[0] = b ? i : j;\nob[1] = b == c;",
    );
  });

  it("operates on bools with bitwise operators, xor as !=", () => {
    expect(kernelBody(typed("ob[0] = b & c; ob[1] = b | c; ob[2] = b ^ c;"))).toBe("ob[0] = b & c;\nob[1] = b | c;\nob[2] = b != c;");
  });

  it("parenthesizes bitwise operands", () => {
    expect(kernelBody(typed("oi[0] = i & j + 1 | ~i;"))).toBe("oi[0] = (i & (int)((unsigned int)j + 1u)) | ~i;");
  });

  it("writes the known result of an unsigned comparison with zero (nvcc warns about the comparison)", () => {
    expect(kernelBody(typed("ob[0] = u >= 0; ob[1] = 0 > ul; ob[2] = u > 0; ob[3] = u32(7) >= 0;"))).toBe("ob[0] = true;\nob[1] = false;\nob[2] = u > 0u;\nob[3] = true;");
  });
});

describe("constants", () => {
  it("prints f32 constants as the shortest decimal that reads back exactly", () => {
    expect(kernelBody(typed("of[0] = 0.1; of[1] = 2.5; of[2] = -0.0; of[3] = 1.0e30; of[4] = 16777216.0; of[5] = 3.4028234663852886e38;"))).toBe(
      "of[0] = 0.1f;\nof[1] = 2.5f;\nof[2] = -0.0f;\nof[3] = 1e30f;\nof[4] = 16777216.0f;\nof[5] = 3.4028235e38f;",
    );
    expect(kernelBody(typed("of[0] = 1.0e-45; of[1] = 0.000001;"))).toBe("of[0] = 1e-45f;\nof[1] = 0.000001f;");
  });

  it("prints f64 constants exactly", () => {
    expect(kernelBody(typed("od[0] = 0.1; od[1] = 1.0e300; od[2] = 5.0e-324;"))).toBe("od[0] = 0.1;\nod[1] = 1e300;\nod[2] = 5e-324;");
  });

  it("writes NaN and infinities by their bits", () => {
    const specials = [NaN, Infinity, -Infinity];
    expect(bodyOf(storesOf(T.f32, () => specials.map((v) => c(T.f32, v))))).toBe(
      "out[0] = __int_as_float(0x7fc00000);\nout[1] = __int_as_float(0x7f800000);\nout[2] = __int_as_float(0xff800000);",
    );
    expect(bodyOf(storesOf(T.f64, () => specials.map((v) => c(T.f64, v))))).toBe(
      [
        "out[0] = __longlong_as_double(0x7ff8000000000000ll);",
        "out[1] = __longlong_as_double(0x7ff0000000000000ll);",
        "out[2] = __longlong_as_double(0xfff0000000000000ll);",
      ].join("\n"),
    );
  });

  it("suffixes integers by type and spells the most negative values without overflow", () => {
    expect(kernelBody(typed("oi[0] = -2147483648; ou[0] = 4294967295; ol[0] = -9223372036854775808; oul[0] = 18446744073709551615; ol[1] = -5; oi[1] = -5;"))).toBe(
      "oi[0] = (-2147483647 - 1);\nou[0] = 4294967295u;\nol[0] = (-9223372036854775807ll - 1);\noul[0] = 18446744073709551615ull;\nol[1] = -5ll;\noi[1] = -5;",
    );
  });
});

describe("builtins", () => {
  it("uses the table's templates, and its prelude helpers (dependencies first) once", () => {
    const src = typed("of[0] = sqrt(f) + min(f, g); od[0] = max(d, e); oi[0] = abs(i); atomicMin(of, 0, f); ob[0] = isnan(d);");
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "static __device__ __forceinline__ int gk_abs_i32(int a) { return a < 0 ? (int)(0u - (unsigned)a) : a; }
      static __device__ float gk_atomic_min_f32(float* p, float v) { int* q = (int*)p; int old = *q, assumed; do { assumed = old; float n = fminf(__int_as_float(assumed), v); old = atomicCAS(q, assumed, __float_as_int(n)); } while (old != assumed); return __int_as_float(old); }

      extern "C" __global__ void k(int i, int j, unsigned int u, unsigned int v, long long l, long long m, unsigned long long ul, unsigned long long um, float f, float g, double d, double e, bool b, bool c, int* __restrict__ oi, unsigned int* __restrict__ ou, long long* __restrict__ ol, unsigned long long* __restrict__ oul, float* __restrict__ of, double* __restrict__ od, bool* __restrict__ ob) {
        of[0] = sqrtf(f) + fminf(f, g);
        od[0] = fmax(d, e);
        oi[0] = gk_abs_i32(i);
        gk_atomic_min_f32(&of[0], f);
        ob[0] = isnan(d);
      }"
    `);
  });

  it("computes float min and max in one instruction's function, with and without @flushToZero", () => {
    for (const ftz of ["", "@flushToZero;\n"]) {
      const body = kernelBody(ftz + typed("of[0] = min(f, g); of[1] = max(f, 0.0); od[0] = clamp(d, e, 1.0);"));
      expect(body).toBe("of[0] = fminf(f, g);\nof[1] = fmaxf(f, 0.0f);\nod[0] = fmin(fmax(d, e), 1.0);");
    }
  });

  it("passes atomics the element's address", () => {
    expect(kernelBody(typed("atomicAdd(oi, i, 1); oul[0] = atomicCAS(oul, 1, um, ul); atomicAdd(ol, 2, l);"))).toBe(
      "atomicAdd(&oi[i], 1);\noul[0] = atomicCAS(&oul[1], um, ul);\n(long long)atomicAdd((unsigned long long*)&ol[2], (unsigned long long)(l));",
    );
  });

  it("adds f16x2 and bf16x2 atomically through CUDA's __half2 and __nv_bfloat162 atomicAdd (one atom.add.noftz.f16x2 / .bf16x2)", () => {
    const src = `device_kernel k(h: global<f16x2>, b: global<bf16x2>, v: f16x2, w: bf16x2) {
  shared s: f16x2[2][4];
  h[1] = atomicAdd(h, 0, v);
  atomicAdd(b, threadIdx.x, w);
  atomicAdd(s[1], 2, v);
}`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "#include <cuda_fp16.h>
      #include <cuda_bf16.h>

      template <typename V> static __device__ __forceinline__ V gk_atomic_add_f16x2(V* p, V v) { const __half2 r = atomicAdd(reinterpret_cast<__half2*>(p), __halves2half2(v.x, v.y)); return V{__low2half(r), __high2half(r)}; }
      template <typename V> static __device__ __forceinline__ V gk_atomic_add_bf16x2(V* p, V v) { const __nv_bfloat162 r = atomicAdd(reinterpret_cast<__nv_bfloat162*>(p), __halves2bfloat162(v.x, v.y)); return V{__low2bfloat16(r), __high2bfloat16(r)}; }

      struct __align__(4) gk_f16x2 { __half x, y; };
      struct __align__(4) gk_bf16x2 { __nv_bfloat16 x, y; };

      extern "C" __global__ void k(gk_f16x2* __restrict__ h, gk_bf16x2* __restrict__ b, __half gk_v_0, __half gk_v_1, __nv_bfloat16 gk_w_0, __nv_bfloat16 gk_w_1) {
        gk_f16x2 v = gk_f16x2{gk_v_0, gk_v_1};
        gk_bf16x2 w = gk_bf16x2{gk_w_0, gk_w_1};
        __shared__ gk_f16x2 s[2][4];
        h[1] = gk_atomic_add_f16x2(&h[0], v);
        gk_atomic_add_bf16x2(&b[(int)threadIdx.x], w);
        gk_atomic_add_f16x2(&s[1][2], v);
      }"
    `);
  });

  it("relies on each table template using each operand exactly once (an operand may have effects)", () => {
    const marks = ["\u0001a", "\u0001b", "\u0001c"];
    const count = (text: string, m: string) => text.split(m).length - 1;
    for (const b of builtins) {
      if (b.rule.kind === "math") {
        const entry = b as MathEntry;
        for (const impl of Object.values(CUDA_MATH[b.name] ?? {})) {
          const text = fill(impl!.template, marks.slice(0, entry.rule.arity));
          marks.slice(0, entry.rule.arity).forEach((m) => expect(count(text, m), `${b.name}: ${text}`).toBe(1));
        }
      } else if (b.rule.kind === "atomic") {
        for (const impl of Object.values(CUDA_ATOMICS[b.name] ?? {})) {
          const args = marks.slice(1, b.rule.op === "cas" ? 3 : 2);
          const text = fill(impl!.template, [marks[0]!, ...args]);
          [marks[0]!, ...args].forEach((m) => expect(count(text, m), `${b.name}: ${text}`).toBe(1));
        }
      }
    }
  });

  it("fills templates: operands in argument slots as they are, the precedence the template declares", () => {
    const sum = { text: "x + y", prec: PREC.add };
    expect(fromTemplate(call("f"), [sum, sum])).toEqual({ text: "f(x + y, x + y)", prec: PREC.primary });
    expect(fromTemplate(raw(([p]) => `(long long)g((unsigned long long*)${p})`, { prec: "unary" }), [{ text: "&p[i]", prec: PREC.unary }])).toEqual({
      text: "(long long)g((unsigned long long*)&p[i])",
      prec: PREC.unary,
    });
  });

  it("spells the barrier __syncthreads()", () => {
    expect(kernelBody(typed("barrier();"))).toBe("__syncthreads();");
  });
});

describe("memory", () => {
  it("declares shared arrays at the kernel's top and local arrays zero-filled or initialized", () => {
    const body = kernelBody(
      typed("shared tile: f32[32][33];\nlet a: f32[4];\nlet q: i32[2][2] = [[1, 2], [3, 4]];\ntile[i][j] = a[i] + f32(q[i][j]);\nof[0] = tile[j][i];"),
    );
    expect(body).toBe(
      "__shared__ float tile[32][33];\nfloat a[4] = {};\nint q[2][2] = {{1, 2}, {3, 4}};\ntile[i][j] = a[i] + (float)q[i][j];\nof[0] = tile[j][i];",
    );
  });

  it("marks what is never read [[maybe_unused]] (nvcc warns about it)", () => {
    const body = kernelBody(typed("shared s: f32[4];\nlet a: i32[2];\nconst x = i + 1;\nlet y = 0;\ny = 2;\nlet z: f32[2];\nz[0] = 1.0;"));
    expect(body).toBe(
      [
        "[[maybe_unused]] __shared__ float s[4];",
        "[[maybe_unused]] int a[2] = {};",
        "[[maybe_unused]] const int x = (int)((unsigned int)i + 1u);",
        "[[maybe_unused]] int y = 0;",
        "y = 2;",
        "[[maybe_unused]] float z[2] = {};",
        "z[0] = 1.0f;",
      ].join("\n"),
    );
  });
});

describe("functions", () => {
  it("passes a shared array to a device function by reference, and inlines that function", () => {
    const src = `device_fn first(s: shared f32[4][2], i: i32): f32 { return s[i][1]; }
device_kernel k(w: global<f32>) { shared t: f32[4][2]; t[0][1] = 1.0; w[0] = first(t, 0); }`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "static __device__ __forceinline__ float first(float (&s)[4][2], int i) {
        return s[i][1];
      }

      extern "C" __global__ void k(float* __restrict__ w) {
        __shared__ float t[4][2];
        t[0][1] = 1.0f;
        w[0] = first(t, 0);
      }"
    `);
  });
  it("leaves a parameter that is set but never read unnamed, with a [[maybe_unused]] local of its name (nvcc ignores the attribute on parameters)", () => {
    const src = `device_fn f(p: i32, q: f32): f32 { p = 3; return q; }
device_kernel k(n: i32, w: global<f32>) { n = 2; w[0] = f(1, 2.0); }`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "static __device__ float f(int /* p: set, never read */, float q) {
        [[maybe_unused]] int p{};
        p = 3;
        return q;
      }

      extern "C" __global__ void k(int /* n: set, never read */, float* __restrict__ w) {
        [[maybe_unused]] int n{};
        n = 2;
        w[0] = f(1, 2.0f);
      }"
    `);
  });
  it("emits device functions first, static, with arrays as pointers; unused ones [[maybe_unused]]", () => {
    const src = `device_fn get(a: readonly global<f32>, w: global<f32>, i: i32): f32 { w[i] = 1.0; return a[i]; }
device_fn unused(x: f32): f32 { return x; }
device_fn nothing(): void { return; }
device_kernel k(a: readonly global<f32>, w: global<f32>) { w[0] = get(a, w, 0); nothing(); }`;
    expect(cudaModule(src)).toMatchInlineSnapshot(`
      "static __device__ float get(const float* a, float* w, int i) {
        w[i] = 1.0f;
        return a[i];
      }

      static __device__ void nothing() {
        return;
      }

      [[maybe_unused]] static __device__ float unused(float x) {
        return x;
      }

      extern "C" __global__ void k(const float* a, float* __restrict__ w) {
        w[0] = get(a, w, 0);
        nothing();
      }"
    `);
  });

  it("writes else-if chains as such", () => {
    expect(kernelBody(typed("if (i < 0) { oi[0] = 1; } else if (i < 5) { oi[0] = 2; } else { oi[0] = 3; }"))).toBe(
      "if (i < 0) {\noi[0] = 1;\n} else if (i < 5) {\noi[0] = 2;\n} else {\noi[0] = 3;\n}",
    );
  });
});

describe("evaluation order", () => {
  const bump = "device_fn bump(a: global<i32>): i32 { a[0] += 1; return a[0]; }\n";

  it("evaluates an operand that writes memory before a later one that reads it, as gk does", () => {
    expect(cudaOf(`${bump}device_kernel k(a: global<i32>) { a[1] = bump(a) + a[0]; }`)).toContain(
      "  int gk_t1;\n  a[1] = (gk_t1 = bump(a), (int)((unsigned int)gk_t1 + (unsigned int)a[0]));",
    );
  });

  it("evaluates a store's indices before its value, as gk does (C++17 does the opposite)", () => {
    expect(cudaOf(`${bump}device_kernel k(a: global<i32>) { a[a[0]] = bump(a); }`)).toContain("  int gk_t1;\n  (gk_t1 = a[0], a[gk_t1] = bump(a));");
  });

  it("leaves expressions whose order cannot be observed alone", () => {
    expect(cudaOf(`device_fn get(a: readonly global<i32>): i32 { return a[0]; }\ndevice_kernel k(a: global<i32>) { a[1] = get(a) + a[0]; }`)).toContain(
      "  a[1] = (int)((unsigned int)get(a) + (unsigned int)a[0]);",
    );
  });

  it("keeps temporaries of a loop condition outside the loop", () => {
    expect(cudaOf(`${bump}device_kernel k(a: global<i32>) { while (bump(a) < a[1]) { a[2] = 0; } }`)).toContain(
      // a[1] is read volatile: the loop writes a (analysis.ts, reloadedBounds).
      "  int gk_t1;\n  while ((gk_t1 = bump(a), gk_t1 < ((const volatile int*)a)[1])) {",
    );
  });
});

describe("#line directives", () => {
  it("point every statement at its .gk line, writing a directive only where nvcc would count another", () => {
    const src = kernel("  if (n > 0) {\n\n    out[0] = f;\n  } else {\n    out[1] = f;\n  }\n  for (let i = 0; i < n; i++) {\n\n\n    out[i] = 0.0;\n  }");
    const cuda = cudaWithLines(src).source;
    expect(cuda.slice(cuda.indexOf("#line"))).toBe(
      [
        '#line 1 "test.gk"',
        'extern "C" __global__ void k(int n, unsigned int u, float f, double d, long long l, bool b, const float* x, float* __restrict__ out, int* __restrict__ iout) {',
        '#line 3 "test.gk"',
        "  if (n > 0) {",
        '#line 5 "test.gk"',
        "    out[0] = f;",
        "  } else {",
        "    out[1] = f;",
        "  }",
        "  for (int i = 0; i < n; i = (int)((unsigned int)i + 1u)) {",
        '#line 12 "test.gk"',
        "    out[i] = 0.0f;",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  });
});

describe("a comparison whose result is known drops its operand, and what only it read", () => {
  it("declares a local read only there [[maybe_unused]], so nvcc finds nothing unread", () => {
    const body = kernelBody("const TAB: u32[3] = [1, 2, 3];\ndevice_kernel k(ob: global<bool>, x: u32) {\n  let v = x + 1;\n  ob[0] = TAB[1] < 0;\n  ob[1] = v >= 0;\n}\n");
    expect(body).toContain("[[maybe_unused]] unsigned int TAB[3]");
    expect(body).toContain("[[maybe_unused]] unsigned int v = x + 1u;");
    expect(body).toContain("ob[0] = false;\nob[1] = true;");
  });
});
