/**
 * The catalog of diagnostic codes. A code, once given, keeps its meaning. Ranges:
 *   GK1xxx lexing and parsing          GK5xxx host-side `launch` statements
 *   GK2xxx names and declarations      GK6xxx imports and modules
 *   GK3xxx types and expressions       GK7xxx building (codegen, nvcc, cache)
 *   GK4xxx statements and structure    GK8xxx running (launcher, simulator, runtime API)
 *   GK9xxx internal compiler errors (always a bug in gk)
 * spec/errors/ holds one .gk program per code that a program can produce.
 */
export const catalog = {
  // lexing and parsing
  GK1001: "unexpected character",
  GK1002: "unterminated string or comment",
  GK1003: "malformed number literal",
  GK1010: "syntax error",
  GK1011: "unexpected end of file",
  GK1012: "invalid assignment target",
  GK1013: "increment or decrement used as an expression",
  GK1014: "nested or chained too deeply",
  GK1020: "TypeScript a kernel cannot use",
  // names and declarations
  GK2001: "unknown name",
  GK2002: "redeclaration",
  GK2003: "unknown type",
  GK2004: "unknown function",
  GK2005: "unknown member",
  GK2006: "assignment to a constant",
  GK2007: "write to a readonly array",
  GK2008: "name is not a value",
  GK2009: "reserved name",
  GK2010: "kernel name taken by the module object",
  GK2011: "kernel name cannot be its CUDA symbol",
  GK2020: "invalid generic parameter, or too many type combinations or instances",
  GK2050: "host value used in a kernel",
  GK2051: "host function called in a kernel",
  GK2040: "struct that contains itself or has no fields",
  GK2041: "vector lane or struct field of a 1- or 2-byte type",
  GK2042: "dynamic shared array of vectors or structs",
  GK2043: "constant memory array of vectors or structs",
  GK2044: "view of vectors or structs",
  GK2045: "reference to a vector or struct",
  GK2046: "vector load or store of a view, dynamic shared array or constant memory",
  // types and expressions
  GK3001: "mixed types without a cast",
  GK3002: "condition is not bool",
  GK3003: "operator not defined for this type",
  GK3004: "wrong number of arguments",
  GK3005: "wrong argument type",
  GK3006: "literal out of range",
  GK3007: "float literal where an integer is expected",
  GK3008: "value cannot be indexed that way",
  GK3009: "index is not an integer",
  GK3010: "invalid cast",
  GK3011: "wrong type returned",
  GK3012: "declaration needs a type or an initializer",
  GK3013: "array used as a value",
  GK3014: "expression is not constant",
  GK3015: "array size must be positive",
  GK3016: "division by zero in a constant expression",
  GK3017: "invalid atomic or ordered-access target or type",
  GK3018: "void value used",
  GK3019: "read of an out parameter",
  GK3030: "generic arguments do not match the generic parameters",
  GK3031: "generic argument not admitted by its parameter",
  GK3032: "generic arguments cannot be inferred",
  GK3040: "struct value that does not fit its type",
  // statements and structure
  GK4001: "shared declared outside a kernel's top level",
  GK4002: "recursion",
  GK4003: "missing return",
  GK4004: "break or continue outside a loop",
  GK4005: "return value mismatch",
  GK4006: "unreachable code",
  GK4007: "invalid parameter type",
  GK4008: "shared memory too large",
  GK4009: "local array too large",
  GK4010: "local arrays are declared with let",
  GK4011: "expression has no effect",
  GK4012: "switch case runs into the next",
  GK4013: "invalid annotation",
  GK4014: "constant memory too large",
  // launch statements
  GK5001: "launch of an unknown kernel",
  GK5002: "missing launch argument",
  GK5003: "unknown launch argument",
  GK5004: "duplicate launch argument",
  GK5005: "launch argument of the wrong kind",
  GK5006: "invalid grid or block size",
  GK5007: "invalid data helper",
  GK5008: "launch value does not fit the element type",
  // imports and modules
  GK6001: "cannot read imported file",
  GK6002: "imported name not found",
  GK6004: "import path must be relative",
  GK6010: "declaration file out of date",
  // building
  GK7001: "nvcc not found",
  GK7002: "nvcc failed",
  GK7003: "damaged cache entry rebuilt",
  GK7004: "cannot read source file",
  GK7005: "nvcc warning",
  GK7006: "cannot write the kernel cache",
  GK7007: "not a gk cache folder",
  // running
  GK8001: "out-of-bounds access",
  GK8002: "barrier divergence",
  GK8003: "integer division by zero",
  GK8004: "step budget exceeded",
  GK8005: "invalid kernel arguments",
  GK8006: "CUDA error",
  GK8007: "no usable GPU",
  GK8008: "launcher failed",
  GK8009: "unknown kernel",
  GK8010: "invalid launch configuration",
  GK8011: "cannot read kernel module",
  GK8012: "kernel timed out",
  GK8013: "uninitialized shared memory read",
  GK8014: "warp divergence",
  GK8015: "shuffle from a lane that does not exist",
  GK8016: "GPU array used after free()",
  GK8017: "GPU array lost: its GPU context was lost or its device closed",
  GK8018: "out of GPU memory",
  GK8019: "device builtin used on the host",
  GK8030: "misaligned vector access",
  GK8040: "data race",
  // internal
  GK9001: "internal compiler error",
} as const;

export type DiagnosticCode = keyof typeof catalog;

export function isDiagnosticCode(s: string): s is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(catalog, s);
}
