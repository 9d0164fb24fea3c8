/**
 * Prelude helpers for the tensor-core builtins (src/ir/mmaBuiltins.ts): PTX `mma.sync.aligned`
 * through inline assembly. Each builtin is a template over gk's vector types (the prelude comes
 * before their definitions; a template looks them up where it is used), which passes the
 * fragments' registers to an `_asm` function overloaded by the accumulator's type. tf32 operands
 * are rounded with `cvt.rna.tf32.f32` first, as the simulator does. Only sm_80 and later
 * assemble these; `legalize` refuses them on a target without the `tensorCores` capability.
 */
const U = "unsigned int";

/** `{%i,%i+1,...}`: n operands from i. */
function regs(from: number, n: number): string {
  return `{${Array.from({ length: n }, (_, k) => `%${from + k}`).join(",")}}`;
}

/** An asm function: D (nd registers of constraint cd) = mma(A: 4 registers, B: 2, C: like D). */
function mmaAsm(name: string, ptx: string, c: string, cd: "f" | "r", nd: number, pre = "", a = "a", b = "b"): string {
  const outs = Array.from({ length: nd }, (_, k) => `"=${cd}"(d[${k}])`).join(", ");
  const ins = [...[0, 1, 2, 3].map((k) => `"r"(${a}[${k}])`), `"r"(${b}[0])`, `"r"(${b}[1])`, ...Array.from({ length: nd }, (_, k) => `"${cd}"(c[${k}])`)].join(", ");
  // An operand the asm takes as it comes is registers of u32; one converted first (tf32's) is floats.
  const operand = (name: string, asIs: string) => `const ${name === asIs ? U : "float"}* ${asIs}`;
  const text = `mma.sync.aligned.${ptx} ${regs(0, nd)}, ${regs(nd, 4)}, ${regs(nd + 4, 2)}, ${regs(nd + 6, nd)};`;
  // A template (of nothing), so that an overload a module does not call draws no "never referenced" warning.
  return `template <int = 0> static __device__ __forceinline__ void ${name}(${operand(a, "a")}, ${operand(b, "b")}, const ${c}* c, ${c}* d) { ${pre}asm volatile("${text}" : ${outs} : ${ins}); }`;
}

/** The builtin's template: the vectors' lanes as register arrays (gk's vectors lay their lanes out in order). */
function front(name: string): string {
  return `template <typename A, typename B, typename C> static __device__ __forceinline__ C ${name}(A a, B b, C c) { C d; ${name}_asm(&a.x, &b.x, &c.x, &d.x); return d; }`;
}

const TF32 = `${U} ta[4], tb[2]; for (int k = 0; k < 4; k++) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(ta[k]) : "f"(a[k])); for (int k = 0; k < 2; k++) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(tb[k]) : "f"(b[k])); `;

/**
 * ldmatrix: the lane's row (a load4's lvalue, bound by reference) gives its shared-window
 * address; n registers out, into a u32 (x1) or the lanes of the vector type R the call names.
 */
function ldmatrix(n: 1 | 2 | 4, trans: boolean): string {
  const name = `gk_ldmatrix_x${n}${trans ? "_trans" : ""}`;
  const ptx = `ldmatrix.sync.aligned.m8n8.x${n}${trans ? ".trans" : ""}.shared.b16 ${regs(0, n)}, [%${n}];`;
  const addr = `"r"((unsigned int)__cvta_generic_to_shared(&row))`;
  const [params, R] = n === 1 ? ["typename V", U] : ["typename R, typename V", "R"];
  const outs = n === 1 ? `"=r"(r)` : ["x", "y", "z", "w"].slice(0, n).map((f) => `"=r"(r.${f})`).join(", ");
  return `template <${params}> static __device__ __forceinline__ ${R} ${name}(const V& row) { ${R} r; asm volatile("${ptx}" : ${outs} : ${addr} : "memory"); return r; }`;
}

export const mmaHelpers = {
  gk_ldmatrix_x1: ldmatrix(1, false),
  gk_ldmatrix_x2: ldmatrix(2, false),
  gk_ldmatrix_x4: ldmatrix(4, false),
  gk_ldmatrix_x1_trans: ldmatrix(1, true),
  gk_ldmatrix_x2_trans: ldmatrix(2, true),
  gk_ldmatrix_x4_trans: ldmatrix(4, true),
  gk_mma_m16n8k16_f16_asm: [
    mmaAsm("gk_mma_m16n8k16_f16_asm", "m16n8k16.row.col.f32.f16.f16.f32", "float", "f", 4),
    mmaAsm("gk_mma_m16n8k16_f16_asm", "m16n8k16.row.col.f16.f16.f16.f16", U, "r", 2),
  ].join("\n"),
  gk_mma_m16n8k16_f16: front("gk_mma_m16n8k16_f16"),
  gk_mma_m16n8k16_bf16_asm: mmaAsm("gk_mma_m16n8k16_bf16_asm", "m16n8k16.row.col.f32.bf16.bf16.f32", "float", "f", 4),
  gk_mma_m16n8k16_bf16: front("gk_mma_m16n8k16_bf16"),
  gk_mma_m16n8k8_tf32_asm: mmaAsm("gk_mma_m16n8k8_tf32_asm", "m16n8k8.row.col.f32.tf32.tf32.f32", "float", "f", 4, TF32, "ta", "tb"),
  gk_mma_m16n8k8_tf32: front("gk_mma_m16n8k8_tf32"),
  gk_mma_m16n8k32_s8_asm: mmaAsm("gk_mma_m16n8k32_s8_asm", "m16n8k32.row.col.s32.s8.s8.s32", "int", "r", 4),
  gk_mma_m16n8k32_s8: front("gk_mma_m16n8k32_s8"),
  gk_mma_m16n8k32_u8_asm: mmaAsm("gk_mma_m16n8k32_u8_asm", "m16n8k32.row.col.s32.u8.u8.s32", "int", "r", 4),
  gk_mma_m16n8k32_u8: front("gk_mma_m16n8k32_u8"),
} as const;

export const mmaHelperDeps = {
  gk_mma_m16n8k16_f16: ["gk_mma_m16n8k16_f16_asm"],
  gk_mma_m16n8k16_bf16: ["gk_mma_m16n8k16_bf16_asm"],
  gk_mma_m16n8k8_tf32: ["gk_mma_m16n8k8_tf32_asm"],
  gk_mma_m16n8k32_s8: ["gk_mma_m16n8k32_s8_asm"],
  gk_mma_m16n8k32_u8: ["gk_mma_m16n8k32_u8_asm"],
} as const;
