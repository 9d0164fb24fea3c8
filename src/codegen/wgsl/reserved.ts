/**
 * Identifiers generated WGSL must not declare, as data: WGSL's keywords and reserved words
 * (WGSL spec, "Keyword Summary" and "Reserved Words"), and the predeclared names the generated
 * code refers to (types and builtin functions: WGSL lets a declaration shadow them, which would
 * change what a call in generated code means). A user name among them is renamed
 * (names.ts); a kernel's too, since the runtime takes its entry point's name from the
 * descriptor (layout.ts), so no kernel name is refused for WGSL.
 */

const words = (s: string): string[] => s.trim().split(/\s+/);

export const WGSL_KEYWORDS: readonly string[] = words(`
  alias break case const const_assert continue continuing default diagnostic discard else enable
  false fn for if let loop override requires return struct switch true var while`);

export const WGSL_RESERVED: readonly string[] = words(`
  NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become
  cast catch class co_await co_return co_yield coherent column_major common compile
  compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype
  delete demote demote_to_helper do dynamic_cast enum explicit export extends extern external
  fallthrough filter final finally friend from fxgroup get goto groupshared highp impl implements
  import inline instanceof interface layout lowp macro macro_rules match mediump meta mod module
  move mut mutable namespace new nil noexcept noinline nointerpolation non_coherent noncoherent
  noperspective null nullptr of operator package packoffset partition pass patch pixelfragment
  precise precision premerge priv protected pub public readonly ref regardless register
  reinterpret_cast require resource restrict self set shared sizeof smooth snorm static
  static_assert static_cast std subroutine super target template this thread_local throw trait
  try type typedef typeid typename typeof union unless unorm unsafe unsized use using varying
  virtual volatile wgsl where with writeonly yield`);

/** Predeclared types, and enumerants that may appear in generated declarations. */
export const WGSL_PREDECLARED_TYPES: readonly string[] = words(`
  bool i32 u32 f32 f16 vec2 vec3 vec4 vec2i vec3i vec4i vec2u vec3u vec4u vec2f vec3f vec4f
  vec2h vec3h vec4h mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 array atomic
  ptr sampler texture_2d read write read_write function private workgroup uniform storage`);

/** Builtin functions of WGSL (every one, whether or not gk calls it today). */
export const WGSL_BUILTIN_FUNCTIONS: readonly string[] = words(`
  bitcast all any select arrayLength abs acos acosh asin asinh atan atanh atan2 ceil clamp cos
  cosh countLeadingZeros countOneBits countTrailingZeros cross degrees determinant distance dot
  exp exp2 extractBits faceForward firstLeadingBit firstTrailingBit floor fma fract frexp
  insertBits inverseSqrt ldexp length log log2 max min mix modf normalize pow quantizeToF16
  radians reflect refract reverseBits round saturate sign sin sinh smoothstep sqrt step tan tanh
  transpose trunc dpdx dpdxCoarse dpdxFine dpdy dpdyCoarse dpdyFine fwidth fwidthCoarse
  fwidthFine textureDimensions textureGather textureLoad textureSample textureStore
  atomicLoad atomicStore atomicAdd atomicSub atomicMax atomicMin atomicAnd atomicOr atomicXor
  atomicExchange atomicCompareExchangeWeak pack4x8snorm pack4x8unorm pack2x16snorm
  pack2x16unorm pack2x16float unpack4x8snorm unpack4x8unorm unpack2x16snorm unpack2x16unorm
  unpack2x16float storageBarrier textureBarrier workgroupBarrier workgroupUniformLoad
  subgroupAdd subgroupBallot subgroupBroadcast subgroupShuffle`);

const RESERVED: ReadonlySet<string> = new Set([...WGSL_KEYWORDS, ...WGSL_RESERVED, ...WGSL_PREDECLARED_TYPES, ...WGSL_BUILTIN_FUNCTIONS]);

/** Whether generated WGSL may declare this identifier (it is one, and neither reserved nor the backend's own `gk_` prefix). */
export function isSafeWgslIdentifier(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && !name.includes("__") && !/^gk_/i.test(name) && !RESERVED.has(name);
}
