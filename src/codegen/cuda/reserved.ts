/**
 * Identifiers that generated CUDA must not declare, as data. A user name that is reserved is
 * renamed (src/codegen/cuda/names.ts), except a kernel's, which is its symbol and must be
 * none of these (`kernelSymbolProblem` below, GK2011; the checker is handed it in CUDA's
 * target record, target.ts). Two levels:
 *
 * - everywhere (locals and parameters too): C++ keywords, the reserved prefixes, CUDA's
 *   built-in variables, and every macro the headers nvcc includes define (a macro rewrites a
 *   local's name as well);
 * - at global scope (kernels, device functions) also every name those headers declare there:
 *   a kernel named `free` or a device function named `sinf` would clash with them. A local
 *   may shadow such a name, since generated code only calls what the builtin table names,
 *   and names.ts reserves those everywhere.
 *
 * The header names were taken from CUDA 13.0 on Linux with glibc (`nvcc -E` and
 * `nvcc -E -Xcompiler -dM` of a `.cu` that includes only cuda_fp16.h and cuda_bf16.h, which
 * the backend includes where a module uses f16 or bf16); test/codegen/cuda/reserved.test.ts derives
 * them again from the installed nvcc, so a toolkit that adds a name fails that test instead
 * of miscompiling a user's program.
 */

import { builtins, type IndexEntry, type WarpEntry } from "../../ir/builtins.js";
import { CUDA_ASYNC_COPY, CUDA_ATOMICS, CUDA_INDEX, CUDA_MATH, CUDA_MEMORY, CUDA_SYNC, CUDA_WARP } from "./builtins.js";
import { fill } from "../../ir/templates.js";
import { assertNever } from "../../util.js";

const words = (s: string): string[] => s.trim().split(/\s+/);

/** Prefixes reserved as a whole, everywhere: C++'s own, gk's internal names, CUDA's API (with its macros). */
export const RESERVED_PREFIXES: readonly RegExp[] = [
  /^_/, // `_X` and `__x` belong to the implementation, `_x` at global scope too
  /__/, // so does any name with a double underscore
  /^gk_/i, // the backend's helpers, temporaries and labels
  /^cuda/i, // CUDA runtime API, its types and macros
  /^cu[A-Z]/, // CUDA driver API
  /^CU[A-Z_]/,
  /^NV_/, // the target macros of <nv/target>, which cuda_fp16.h and cuda_bf16.h include
];

/** Prefixes reserved for names at global scope: families of functions the headers declare. */
export const GLOBAL_RESERVED_PREFIXES: readonly RegExp[] = [
  /^atomic[A-Z]/, // atomicAdd, atomicAdd_block, ...
  /^make_/, // make_float4 and the other vector constructors
];

/**
 * The CUDA API's prefixes with their case, for kernel names (kept verbatim as symbols, see
 * names.ts `kernelSymbolProblem`): the runtime API (`cudaMalloc`, `cudaArrayDefault`), the driver
 * API (`cuInit`), and its macros and enumerators (`CU_UUID_HAS_BEEN_DEFINED`, `CUDA_R_32F`,
 * `CUDART_VERSION`), and the target macros of <nv/target> (`NV_IS_DEVICE`). The headers' other
 * names that start with `CU` are in HEADER_DECLARATIONS.
 */
export const CUDA_API_PREFIXES: readonly RegExp[] = [/^cuda/, /^cu[A-Z]/, /^CU_/, /^CUDA_/, /^CUDART/, /^NV_/];

/** C++20 keywords and alternative operator spellings, and `main`, `std` and `errno`. */
export const CPP_KEYWORDS: readonly string[] = words(`
  alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
  class compl concept const consteval constexpr constinit const_cast continue co_await co_return
  co_yield decltype default delete do double dynamic_cast else enum explicit export extern false final
  float for friend goto if import inline int long module mutable namespace new noexcept not not_eq
  nullptr operator or or_eq override private protected public register reinterpret_cast requires
  restrict return short signed sizeof static static_assert static_cast struct switch template this
  thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
  wchar_t while xor xor_eq main std errno
`);

/** CUDA's built-in variables, reserved everywhere. */
export const CUDA_BUILTIN_VARIABLES: readonly string[] = words("threadIdx blockIdx blockDim gridDim warpSize");

/** Macros (without a leading underscore) that the headers nvcc includes in every `.cu` define. */
export const HEADER_MACROS: readonly string[] = words(`
  IF_DEVICE_OR_CUDACC
  ADJ_ESTERROR ADJ_FREQUENCY ADJ_MAXERROR ADJ_MICRO ADJ_NANO ADJ_OFFSET ADJ_OFFSET_SINGLESHOT
  ADJ_OFFSET_SS_READ ADJ_SETOFFSET ADJ_STATUS ADJ_TAI ADJ_TICK ADJ_TIMECONST AIO_PRIO_DELTA_MAX
  BC_BASE_MAX BC_DIM_MAX BC_SCALE_MAX BC_STRING_MAX BIG_ENDIAN BOOL_MAX BOOL_WIDTH BUFSIZ BYTE_ORDER
  CHARCLASS_NAME_MAX CHAR_BIT CHAR_MAX CHAR_MIN CHAR_WIDTH CLOCKS_PER_SEC CLOCK_BOOTTIME
  CLOCK_BOOTTIME_ALARM CLOCK_MONOTONIC CLOCK_MONOTONIC_COARSE CLOCK_MONOTONIC_RAW CLOCK_PROCESS_CPUTIME_ID
  CLOCK_REALTIME CLOCK_REALTIME_ALARM CLOCK_REALTIME_COARSE CLOCK_TAI CLOCK_THREAD_CPUTIME_ID
  COLL_WEIGHTS_MAX DELAYTIMER_MAX EOF EXIT_FAILURE EXIT_SUCCESS EXPR_NEST_MAX FD_CLR FD_ISSET FD_SET
  FD_SETSIZE FD_ZERO FILENAME_MAX FOPEN_MAX FP_ILOGB0 FP_ILOGBNAN FP_INFINITE FP_INT_DOWNWARD
  FP_INT_TONEAREST FP_INT_TONEARESTFROMZERO FP_INT_TOWARDZERO FP_INT_UPWARD FP_LLOGB0 FP_LLOGBNAN FP_NAN
  FP_NORMAL FP_SUBNORMAL FP_ZERO HOST_NAME_MAX HUGE_VAL HUGE_VALF HUGE_VALL HUGE_VAL_F32 HUGE_VAL_F32X
  HUGE_VAL_F64 HUGE_VAL_F64X INFINITY INT_MAX INT_MIN INT_WIDTH IOV_MAX LINE_MAX LITTLE_ENDIAN LLONG_MAX
  LLONG_MIN LLONG_WIDTH LOGIN_NAME_MAX LONG_BIT LONG_LONG_MAX LONG_LONG_MIN LONG_MAX LONG_MIN LONG_WIDTH
  L_ctermid L_cuserid L_tmpnam MATH_ERREXCEPT MATH_ERRNO MAXFLOAT MAX_CANON MAX_INPUT MB_CUR_MAX
  MB_LEN_MAX MOD_CLKA MOD_CLKB MOD_ESTERROR MOD_FREQUENCY MOD_MAXERROR MOD_MICRO MOD_NANO MOD_OFFSET
  MOD_STATUS MOD_TAI MOD_TIMECONST MQ_PRIO_MAX M_1_PI M_1_PIf M_1_PIf32 M_1_PIf32x M_1_PIf64 M_1_PIf64x
  M_1_PIl M_2_PI M_2_PIf M_2_PIf32 M_2_PIf32x M_2_PIf64 M_2_PIf64x M_2_PIl M_2_SQRTPI M_2_SQRTPIf
  M_2_SQRTPIf32 M_2_SQRTPIf32x M_2_SQRTPIf64 M_2_SQRTPIf64x M_2_SQRTPIl M_E M_Ef M_Ef32 M_Ef32x M_Ef64
  M_Ef64x M_El M_LN10 M_LN10f M_LN10f32 M_LN10f32x M_LN10f64 M_LN10f64x M_LN10l M_LN2 M_LN2f M_LN2f32
  M_LN2f32x M_LN2f64 M_LN2f64x M_LN2l M_LOG10E M_LOG10Ef M_LOG10Ef32 M_LOG10Ef32x M_LOG10Ef64 M_LOG10Ef64x
  M_LOG10El M_LOG2E M_LOG2Ef M_LOG2Ef32 M_LOG2Ef32x M_LOG2Ef64 M_LOG2Ef64x M_LOG2El M_PI M_PI_2 M_PI_2f
  M_PI_2f32 M_PI_2f32x M_PI_2f64 M_PI_2f64x M_PI_2l M_PI_4 M_PI_4f M_PI_4f32 M_PI_4f32x M_PI_4f64
  M_PI_4f64x M_PI_4l M_PIf M_PIf32 M_PIf32x M_PIf64 M_PIf64x M_PIl M_SQRT1_2 M_SQRT1_2f M_SQRT1_2f32
  M_SQRT1_2f32x M_SQRT1_2f64 M_SQRT1_2f64x M_SQRT1_2l M_SQRT2 M_SQRT2f M_SQRT2f32 M_SQRT2f32x M_SQRT2f64
  M_SQRT2f64x M_SQRT2l NAME_MAX NAN NFDBITS NGROUPS_MAX NL_ARGMAX NL_LANGMAX NL_MSGMAX NL_NMAX NL_SETMAX
  NL_TEXTMAX NULL NZERO PATH_MAX PDP_ENDIAN PIPE_BUF PTHREAD_DESTRUCTOR_ITERATIONS PTHREAD_KEYS_MAX
  PTHREAD_STACK_MIN P_tmpdir RAND_MAX RENAME_EXCHANGE RENAME_NOREPLACE RENAME_WHITEOUT RE_DUP_MAX
  RTSIG_MAX SCHAR_MAX SCHAR_MIN SCHAR_WIDTH SEEK_CUR SEEK_DATA SEEK_END SEEK_HOLE SEEK_SET SEM_VALUE_MAX
  SHRT_MAX SHRT_MIN SHRT_WIDTH SNAN SNANF SNANF32 SNANF32X SNANF64 SNANF64X SNANL SSIZE_MAX STA_CLK
  STA_CLOCKERR STA_DEL STA_FLL STA_FREQHOLD STA_INS STA_MODE STA_NANO STA_PLL STA_PPSERROR STA_PPSFREQ
  STA_PPSJITTER STA_PPSSIGNAL STA_PPSTIME STA_PPSWANDER STA_RONLY STA_UNSYNC TIMER_ABSTIME TIME_UTC
  TMP_MAX TTY_NAME_MAX UCHAR_MAX UCHAR_WIDTH UINT_MAX UINT_WIDTH ULLONG_MAX ULLONG_WIDTH ULONG_LONG_MAX
  ULONG_MAX ULONG_WIDTH USHRT_MAX USHRT_WIDTH WCONTINUED WEXITED WEXITSTATUS WIFCONTINUED WIFEXITED
  WIFSIGNALED WIFSTOPPED WNOHANG WNOWAIT WORD_BIT WSTOPPED WSTOPSIG WTERMSIG WUNTRACED XATTR_LIST_MAX
  XATTR_NAME_MAX XATTR_SIZE_MAX alloca assert assert_perror be16toh be32toh be64toh htobe16 htobe32
  htobe64 htole16 htole32 htole64 isalnum_l isalpha_l isascii isascii_l isblank_l iscntrl_l isdigit_l
  isgraph_l islower_l isprint_l ispunct_l isspace_l issubnormal isupper_l isxdigit_l le16toh le32toh
  le64toh linux math_errhandling offsetof stderr stdin stdout strdupa strndupa toascii toascii_l unix
`);

/** CUDA's vector types (`float4`, `ulonglong4_32a`, ...), generated from their element names. */
export const CUDA_VECTOR_TYPES: readonly string[] = words(
  "char uchar short ushort int uint long ulong longlong ulonglong float double",
).flatMap((b) => [`${b}1`, `${b}2`, `${b}3`, `${b}4`, `${b}4_16a`, `${b}4_32a`]);

/** Suffixes of the C library's math families: `sin`, `sinf`, `sinl`, `sinf64x`, ... */
export const MATH_SUFFIXES: readonly string[] = ["", "f", "l", "f32", "f32x", "f64", "f64x", "f128", "f128x"];

/** Math function families declared at global scope (each with every suffix above, and with `_r` after it). */
export const MATH_FAMILIES: readonly string[] = words(`
  acos acosh asin asinh atan atan2 atanh canonicalize cbrt ceil copysign cos cosh drem erf erfc exp exp10
  exp2 expm1 fabs fdim finite floor fma fmax fmaximum fmaximum_mag fmaximum_mag_num fmaximum_num fmaxmag
  fmin fminimum fminimum_mag fminimum_mag_num fminimum_num fminmag fmod frexp fromfp fromfpx gamma
  getpayload hypot ilogb isnan j0 j1 jn ldexp lgamma llogb llrint llround log log10 log1p log2 logb lrint
  lround modf nan nearbyint nextafter nextdown nexttoward nextup pow remainder remquo rint round roundeven
  scalb scalbln scalbn setpayload setpayloadsig significand sin sincos sinh sqrt tan tanh tgamma
  totalorder totalordermag trunc ufromfp ufromfpx y0 y1 yn
`);

/** Every other name the headers declare at global scope, and names later CUDA headers are likely to. */
export const HEADER_DECLARATIONS: readonly string[] = words(`
  htrunc hceil hfloor hrint hsqrt hrcp htanh htanh_approx hexp10 nv_half nv_half2
  h2trunc h2ceil h2floor h2rint h2tanh h2tanh_approx h2sqrt h2rsqrt h2rcp h2log h2log2 h2log10 h2exp h2exp2 h2exp10 h2cos h2sin
  dim3 half half2 nv_bfloat16 nv_bfloat162 nvcuda cooperative_groups cub thrust isinf isnan isfinite signbit
  fpclassify isnormal isgreater isless islessgreater
  CUevent_st CUexternalMemory_st CUexternalSemaphore_st CUfunc_st CUgraphDeviceUpdatableNode_st
  CUgraphExec_st CUgraphNode_st CUgraph_st CUkern_st CUlib_st CUlogsCallbackEntry_st CUmemPoolHandle_st
  CUstream_st CUuserObject_st CUuuid CUuuid_st CUDAlogLevel_enum FILE MAJOR_VERSION MINOR_VERSION PATCH_LEVEL a64l abort abs
  aligned_alloc all any arc4random arc4random_buf arc4random_uniform asctime asctime_r asprintf
  at_quick_exit atexit atof atoi atol atoll ballot basename bcmp bcopy blkcnt64_t blkcnt_t blksize_t
  blockDim blockIdx bsearch bzero caddr_t calloc canonicalize_file_name clearenv clearerr
  clearerr_unlocked clock clock64 clock_adjtime clock_getcpuclockid clock_getres clock_gettime
  clock_nanosleep clock_settime clock_t clockid_t comparison_fn_t cookie_close_function_t
  cookie_io_functions_t cookie_read_function_t cookie_seek_function_t cookie_write_function_t cospi cospif
  ctermid ctime ctime_r cuserid cyl_bessel_i0 cyl_bessel_i0f cyl_bessel_i1 cyl_bessel_i1f dadd daddl
  daddr_t daylight ddivl dev_t dfmal difftime dim3 div div_t dmul dmull double2int double2ll double2uint
  double2ull double_t dprintf drand48 drand48_data drand48_r dsqrtl dsub dsubl dysize ecvt ecvt_r erand48
  erand48_r erfcinv erfcinvf erfcx erfcxf erfinv erfinvf exit explicit_bzero f32addf32x f32addf64
  f32addf64x f32divf32x f32divf64 f32divf64x f32fmaf32x f32fmaf64 f32fmaf64x f32mulf32x f32mulf64
  f32mulf64x f32sqrtf32x f32sqrtf64 f32sqrtf64x f32subf32x f32subf64 f32subf64x f32xaddf64 f32xaddf64x
  f32xdivf64 f32xdivf64x f32xfmaf64 f32xfmaf64x f32xmulf64 f32xmulf64x f32xsqrtf64 f32xsqrtf64x f32xsubf64
  f32xsubf64x f64addf64x f64divf64x f64fmaf64x f64mulf64x f64sqrtf64x f64subf64x fadd faddl fclose
  fcloseall fcvt fcvt_r fd_mask fd_set fdiv fdivide fdividef fdivl fdopen feof feof_unlocked ferror
  ferror_unlocked fflush fflush_unlocked ffma ffmal ffs ffsl ffsll fgetc fgetc_unlocked fgetpos fgetpos64
  fgets fgets_unlocked fileno fileno_unlocked float2double float_t flockfile fmemopen fmul fmull fopen
  fopen64 fopencookie fpos64_t fpos_t fprintf fputc fputc_unlocked fputs fputs_unlocked fread
  fread_unlocked free freopen freopen64 fsblkcnt64_t fsblkcnt_t fscanf fseek fseeko fseeko64 fsetpos
  fsetpos64 fsfilcnt64_t fsfilcnt_t fsid_t fsqrt fsqrtl fsub fsubl ftell ftello ftello64 ftrylockfile
  funlockfile fwrite fwrite_unlocked gcvt getc getc_unlocked getchar getchar_unlocked getdate getdate_err
  getdate_r getdelim getenv getline getloadavg getpt getsubopt getw gid_t gmtime gmtime_r grantpt gridDim
  id_t index initstate initstate_r ino64_t ino_t int16_t int2double int32_t int64_t int8_t isalnum isalpha
  isblank iscanonical iscntrl isctype isdigit isfinite isgraph isgreaterequal isinff isinfl islessequal
  islower isprint ispunct issignaling isspace isunordered isupper isxdigit itimerspec jrand48 jrand48_r
  key_t l64a labs lcong48 lcong48_r ldiv ldiv_t libraryPropertyType libraryPropertyType_t ll2double llabs
  lldiv lldiv_t llmax llmin locale_t localtime localtime_r loff_t lrand48 lrand48_r malloc max max_align_t
  mblen mbstowcs mbtowc memccpy memchr memcmp memcpy memfrob memmem memmove mempcpy memrchr memset min
  mkdtemp mkostemp mkostemp64 mkostemps mkostemps64 mkstemp mkstemp64 mkstemps mkstemps64 mktemp mktime
  mode_t mrand48 mrand48_r nanosleep nlink_t norm norm3d norm3df norm4d norm4df normcdf normcdff
  normcdfinv normcdfinvf normf nrand48 nrand48_r nullptr_t obstack obstack_printf obstack_vprintf off64_t
  off_t on_exit open_memstream pclose perror pid_t popen posix_memalign posix_openpt printf pselect
  pthread_attr_t pthread_barrier_t pthread_barrierattr_t pthread_cond_t pthread_condattr_t pthread_key_t
  pthread_mutex_t pthread_mutexattr_t pthread_once_t pthread_rwlock_t pthread_rwlockattr_t
  pthread_spinlock_t pthread_t ptrdiff_t ptsname ptsname_r putc putc_unlocked putchar putchar_unlocked
  putenv puts putw qecvt qecvt_r qfcvt qfcvt_r qgcvt qsort qsort_r quad_t quick_exit rand rand_r random
  random_data random_r rawmemchr rcbrt rcbrtf realloc reallocarray realpath remove rename renameat
  renameat2 rewind rhypot rhypotf rindex rnorm rnorm3d rnorm3df rnorm4d rnorm4df rnormf rpmatch rsqrt
  rsqrtf scanf secure_getenv seed48 seed48_r select setbuf setbuffer setenv setlinebuf setstate setstate_r
  setvbuf sigabbrev_np sigdescr_np sigevent signbit signgam sigset_t sincospi sincospif sinpi sinpif
  size_t snprintf sprintf srand srand48 srand48_r srandom srandom_r sscanf ssize_t stpcpy stpncpy
  strcasecmp strcasecmp_l strcasestr strcat strchr strchrnul strcmp strcoll strcoll_l strcpy strcspn
  strdup strerror strerror_l strerror_r strerrordesc_np strerrorname_np strfromd strfromf strfromf32
  strfromf32x strfromf64 strfromf64x strfroml strfry strftime strftime_l strlen strncasecmp strncasecmp_l
  strncat strncmp strncpy strndup strnlen strpbrk strptime strptime_l strrchr strsep strsignal strspn
  strstr strtod strtod_l strtof strtof32 strtof32_l strtof32x strtof32x_l strtof64 strtof64_l strtof64x
  strtof64x_l strtof_l strtok strtok_r strtol strtol_l strtold strtold_l strtoll strtoll_l strtoq strtoul
  strtoul_l strtoull strtoull_l strtouq strverscmp strxfrm strxfrm_l suseconds_t swap syncthreads_and
  syncthreads_count syncthreads_or system tempnam threadIdx time time_t timegm timelocal timer_create
  timer_delete timer_getoverrun timer_gettime timer_settime timer_t timespec timespec_get timespec_getres
  timeval timex timezone tm tmpfile tmpfile64 tmpnam tmpnam_r tolower tolower_l toupper toupper_l tzname
  tzset u_char u_int u_int16_t u_int32_t u_int64_t u_int8_t u_long u_quad_t u_short uid_t uint uint2double
  ull2double ullmax ullmin ulong umax umin ungetc unlockpt unsetenv useconds_t ushort va_list valloc
  vasprintf vdprintf vfprintf vfscanf vprintf vscanf vsnprintf vsprintf vsscanf warpSize wcstombs wctomb
`);

/** Identifiers that the builtin table's CUDA templates use (`fabsf`, `atomicCAS`, `threadIdx`, ...). */
export function builtinCudaNames(): string[] {
  const args = ["a", "b", "c"];
  const texts: string[] = [];
  for (const b of builtins) {
    switch (b.rule.kind) {
      case "math":
        for (const impl of Object.values(CUDA_MATH[b.name] ?? {})) if (impl) texts.push(fill(impl.template, args));
        break;
      case "atomic":
        for (const impl of Object.values(CUDA_ATOMICS[b.name] ?? {})) if (impl) texts.push(fill(impl.template, ["p", ...args]));
        break;
      case "sync":
        texts.push(fill(CUDA_SYNC[b.name]!, []));
        break;
      case "index":
        for (const axis of [0, 1, 2] as const) texts.push(`(int)${CUDA_INDEX[(b as IndexEntry).name].value(axis)}`);
        break;
      case "warp":
        texts.push(fill(CUDA_WARP[(b as WarpEntry).name].template, args));
        break;
      case "memory":
        for (const impl of Object.values(CUDA_MEMORY[b.name] ?? {})) if (impl) texts.push(fill(impl.template, ["p", ...args]));
        break;
      case "asyncCopy":
        texts.push(fill(CUDA_ASYNC_COPY[b.name]!(16).template, args));
        break;
      case "constant":
      case "vector":
      case "vectorMemory":
      case "cacheHint":
        // Vector builtins are written with the vector helpers' own names (gk_vop_...) and casts, cache hints with gk_ld_cs and the like.
        break;
      default:
        assertNever(b.rule, "builtin rule");
    }
  }
  // The placeholders, and the members .x .y .z of CUDA's index variables, are not names to avoid.
  const notNames = new Set([...args, "p", "x", "y", "z"]);
  return texts.flatMap((t) => t.match(/\b[A-Za-z_]\w*/g) ?? []).filter((w) => !notNames.has(w));
}

/**
 * Why a kernel's gk name cannot be its `extern "C"` symbol, or undefined when it can. A kernel
 * keeps its name verbatim (spec: Module-level declarations), so the rule is what C++, the
 * headers nvcc includes and the generated code itself claim at global scope, read from the
 * same lists as `isReservedIdentifier`; but the CUDA API's prefixes are matched with their
 * case (`cuda`, `cu` + capital, `CU_`, `CUDA_`, `CUDART`), so that `CUDAkernel2DCT` is a kernel
 * name (the headers' other CUDA-prefixed names are in the lists).
 */
export function kernelSymbolProblem(name: string): string | undefined {
  if (name.startsWith("_")) return "C++ reserves names that start with '_' for its implementation";
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return "it is not a C++ identifier";
  if (name.includes("__")) return "C++ reserves names with a double underscore for its implementation";
  if (/^gk_/i.test(name)) return "names that start with 'gk_' are the generated code's own";
  if (CPP_KEYWORDS.includes(name)) return ["main", "std", "errno"].includes(name) ? "C++ reserves it" : "it is a C++ keyword";
  if (CUDA_BUILTIN_VARIABLES.includes(name)) return "it is one of CUDA's built-in variables";
  if (HEADER_MACROS.includes(name)) return "the headers nvcc includes define a macro of that name";
  if (generatedNames().has(name)) return "the generated code calls a function of that name";
  if (HEADER_DECLARATIONS.includes(name) || CUDA_VECTOR_TYPES.includes(name) || MATH_FAMILIES.some((f) => MATH_SUFFIXES.some((s) => name === f + s || name === `${f}${s}_r`))) {
    return "the headers nvcc includes declare that name";
  }
  const prefix = [...GLOBAL_RESERVED_PREFIXES, ...CUDA_API_PREFIXES].find((p) => p.test(name));
  if (prefix) return `the CUDA headers declare names that start with ${prefixText(prefix)}`;
  return undefined;
}

let generated: ReadonlySet<string> | undefined;
/** Functions the generated code calls (the builtin table's CUDA templates), and CUDA's float remainders. */
function generatedNames(): ReadonlySet<string> {
  return (generated ??= new Set([...builtinCudaNames(), "fmodf", "fmod"]));
}

/** `/^cu[A-Z]/` as "'cu' and a capital letter", `/^make_/` as "'make_'". */
function prefixText(re: RegExp): string {
  const src = re.source.replace(/^\^/, "");
  return src.endsWith("[A-Z]") ? `'${src.slice(0, -5)}' and a capital letter` : `'${src}'`;
}
