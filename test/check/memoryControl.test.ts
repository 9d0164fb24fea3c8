/**
 * The checker on the memory and control features: constant and dynamic shared arrays,
 * references and views, ordered accesses and fences, @unroll, @flushToZero, warp match and the
 * fast builtins. Each program is checked whole; the expected diagnostics are exact.
 */
import { describe, it } from "vitest";
import { expectDiagnostics } from "../helpers.js";

describe("constant arrays", () => {
  it("refuses a constant array over 64 KiB (GK4014)", () => {
    expectDiagnostics("constant BIG: f64[9000];\ndevice_kernel k(o: global<f64>) { o[0] = BIG[0]; }", ["GK4014 1:15 'BIG' has 72000 bytes; a module's constant memory holds at most 65536 bytes (pass large data as a readonly global array)"]);
  });
  it("refuses constant arrays that together pass 64 KiB, at the one that passes it", () => {
    expectDiagnostics("constant A: f64[5000];\nconstant B: f64[5000];\ndevice_kernel k(o: global<f64>) { o[0] = A[0] + B[0]; }", ["GK4014 2:10 the module's constant arrays now take 80000 bytes; a module's constant memory holds at most 65536 bytes (pass large data as a readonly global array)"]);
  });
  it("refuses a store to constant memory", () => {
    expectDiagnostics("constant A: f32[4];\ndevice_kernel k(o: global<f32>) { A[0] = 1.0; }", ["GK2007 2:35 'A' is constant memory (constant f32[4]); kernels read it, and each launch gives its contents"]);
  });
  it("says where constant memory is declared when a function declares it", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { constant A: f32[4]; }", ["GK1010 1:44 constant memory is declared at the top level of a module (`constant TAPS: f32[17];`), not inside a function"]);
  });
  it("refuses a constant array without a size", () => {
    expectDiagnostics("constant A: f32[];\ndevice_kernel k(o: global<f32>) { o[0] = A[0]; }", ["GK4007 1:13 a constant array has a scalar element type and constant sizes: constant A: f32[16];"]);
  });
  it("refuses an atomic on constant memory", () => {
    expectDiagnostics("constant A: u32[4];\ndevice_kernel k(o: global<u32>) { atomicAdd(A, 0, 1); }", ["GK2007 2:45 atomicAdd() writes to 'A', which is readonly (constant u32[4])"]);
  });
  it("passes constant memory to a readonly view", () => {
    expectDiagnostics("constant A: f32[4];\ndevice_fn f(v: readonly view<f32>): f32 { return v[0]; }\ndevice_kernel k(o: global<f32>) { o[0] = f(view(A, 0, 4)); }", []);
  });
  it("lets a kernel parameter shadow a constant array the kernel does not read", () => {
    expectDiagnostics("constant A: f32[4];\ndevice_kernel k(A: global<f32>) { A[0] = 1.0; }", []);
  });
  it("asks a launch statement for each constant array the kernel reads", () => {
    expectDiagnostics("constant A: f32[2];\ndevice_kernel k(o: global<f32>) { o[0] = A[0]; }\nlaunch k(o = zeros(1)) grid(1) block(1);", ["GK5002 3:8 launch of 'k' is missing the argument 'A': write A = ..."]);
  });
  it("checks the length of a launch statement's constant array", () => {
    expectDiagnostics("constant A: f32[2];\ndevice_kernel k(o: global<f32>) { o[0] = A[0]; }\nlaunch k(o = zeros(1), A = [1.0, 2.0, 3.0]) grid(1) block(1);", ["GK5005 3:28 'A' is constant f32[2]: give its 2 elements (row-major), not 3"]);
  });
  it("refuses a constant array the kernel does not read in a launch statement", () => {
    expectDiagnostics("constant A: f32[2];\ndevice_kernel k(o: global<f32>) { o[0] = 1.0; }\nlaunch k(o = zeros(1), A = [1.0, 2.0]) grid(1) block(1);", ["GK5003 3:24 'k' does not read the constant array 'A' (its parameters: o)"]);
  });
  it("takes a module const table as a launch statement's array argument", () => {
    expectDiagnostics("const T: f32[3] = [1.0, 2.0, 3.0];\ndevice_kernel k(x: readonly global<f32>, o: global<f32>) { o[0] = x[2]; }\nlaunch k(x = T, o = zeros(1)) grid(1) block(1);", []);
  });
});

describe("dynamic shared arrays", () => {
  it("refuses shared memory, dynamic or not, in a device_fn", () => {
    expectDiagnostics("device_fn f() { shared b: f32[]; }\ndevice_kernel k(o: global<f32>) { f(); }", ["GK4001 1:17 'shared' memory is declared in a device_kernel's body, not in a device_fn (pass the kernel's shared array to a `shared T[N]` parameter)"]);
  });
  it("refuses an unsized local array", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { let b: f32[]; }", ["GK4007 1:42 only a shared array declared in a kernel may leave out its size (`shared buf: f32[];`, its length given by each launch); give this array its size"]);
  });
  it("refuses an unsized multi-dimensional shared array", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { shared b: f32[][4]; }", ["GK1010 1:45 only a one-dimensional shared array declared in a kernel may leave out its size, which each launch gives: `shared buf: f32[];`"]);
  });
  it("takes load4/store4 (and load8/store8) of a dynamic shared array, each of which starts at a multiple of 16 bytes", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { shared a: u8[]; shared b: f32[]; shared h: f16[]; a[0] = u8(1); store4(b, 0, f32x4(1.0)); store8(h, 0, f16x8(f16(1.0))); o[0] = load4(b, 0).w + f32(load8(h, 0).s7); }", []);
  });
  it("asks a launch statement for each dynamic shared array's length", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { shared b: f32[]; b[0] = 1.0; o[0] = b[0]; }\nlaunch k(o = zeros(1)) grid(1) block(1);", ["GK5002 2:8 launch of 'k' is missing the length of 'b', a dynamic shared array: write shared(b = ...) after block(...)"]);
  });
  it("refuses a length for a dynamic shared array the kernel does not have", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { shared b: f32[]; b[0] = 1.0; o[0] = b[0]; }\nlaunch k(o = zeros(1)) grid(1) block(1) shared(c = 4);", ["GK5002 2:8 launch of 'k' is missing the length of 'b', a dynamic shared array: write shared(b = ...) after block(...)", "GK5003 2:48 'k' has no dynamic shared array 'c' (declared 'shared c: T[];'; its dynamic shared arrays: b)"]);
  });
  it("refuses a launch statement whose shared memory passes the device limit", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { shared b: f32[]; b[0] = 1.0; o[0] = b[0]; }\nlaunch k(o = zeros(1)) grid(1) block(1) shared(b = 100000);", ["GK5006 2:48 this launch gives 'k' 400000 bytes of shared memory per block (0 static); a block may use at most 232448"]);
  });
});

describe("references", () => {
  it("refuses an expression for a reference parameter", () => {
    expectDiagnostics("device_fn f(x: inout i32) { x = 1; }\ndevice_kernel k(o: global<i32>) { f(3); }", ["GK3005 2:37 parameter 'x' of f() is inout i32: pass a variable or an array element (x, a[i]), which f() reads and writes; '3' is neither"]);
  });
  it("refuses a const for a reference parameter", () => {
    expectDiagnostics("device_fn f(x: inout i32) { x = 1; }\ndevice_kernel k(o: global<i32>) { const c = 1; f(c); }", ["GK3005 2:50 parameter 'x' of f() is inout i32: pass a variable or an array element (x, a[i]), which f() reads and writes; 'c' is neither"]);
  });
  it("refuses a readonly array's element for a reference parameter", () => {
    expectDiagnostics("device_fn f(x: inout f32) { x = 1.0; }\ndevice_kernel k(x: readonly global<f32>) { f(x[0]); }", ["GK2007 2:46 'x' is readonly (readonly global<f32>); it cannot be written: drop 'readonly' from the parameter if the kernel must write it"]);
  });
  it("refuses a reference of another type", () => {
    expectDiagnostics("device_fn f(x: inout f32) { x = 1.0; }\ndevice_kernel k(o: global<i32>) { f(o[0]); }", ["GK3005 2:37 parameter 'x' of f() is inout f32, but 'o[0]' is i32: a reference is to a variable or element of exactly its type"]);
  });
  it("refuses reading an out parameter (x += 1 reads it)", () => {
    expectDiagnostics("device_fn f(x: out i32) { x += 1; }\ndevice_kernel k(o: global<i32>) { f(o[0]); }", ["GK3019 1:27 'x' is an out parameter: the function writes it and cannot read it; declare it 'inout' to read the caller's value"]);
  });
  it("refuses returning an out parameter", () => {
    expectDiagnostics("device_fn f(x: out i32): i32 { return x; }\ndevice_kernel k(o: global<i32>) { o[1] = f(o[0]); }", ["GK3019 1:39 'x' is an out parameter: the function writes it and cannot read it; declare it 'inout' to read the caller's value"]);
  });
  it("refuses reference parameters on kernels", () => {
    expectDiagnostics("device_kernel k(x: inout i32) { x = 1; }", ["GK4007 1:20 a kernel's parameters are values and global arrays, given by the launch; 'inout' marks a device_fn parameter that refers to its caller's variable or element"]);
  });
});

describe("views", () => {
  it("refuses view parameters on kernels", () => {
    expectDiagnostics("device_kernel k(x: view<f32>) { x[0] = 1.0; }", ["GK4007 1:20 a kernel's parameters are scalars and global arrays; a view is a device_fn parameter"]);
  });
  it("refuses a view as a value", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { let v = view(o, 0, 1); }", ["GK3013 1:43 view(array, offset, length) makes a view for a device_fn's view<T> parameter; it can only be such an argument, not a value"]);
  });
  it("refuses a readonly array for a writable view", () => {
    expectDiagnostics("device_fn f(v: view<f32>) { v[0] = 1.0; }\ndevice_kernel k(x: readonly global<f32>) { f(view(x, 0, 1)); }", ["GK2007 2:46 'x' is readonly global<f32>, but parameter 'v' of f() may write it: declare the parameter 'readonly view<f32>'"]);
  });
  it("refuses a write through a readonly view", () => {
    expectDiagnostics("device_fn f(v: readonly view<f32>) { v[0] = 1.0; }\ndevice_kernel k(o: global<f32>) { f(view(o, 0, 1)); }", ["GK2007 1:38 'v' is readonly (readonly view<f32>); it cannot be written: drop 'readonly' from the parameter if the kernel must write it"]);
  });
  it("refuses a view of another element type", () => {
    expectDiagnostics("device_fn f(v: readonly view<f32>): f32 { return v[0]; }\ndevice_kernel k(o: global<i32>) { let a = f(view(o, 0, 1)); }", ["GK3005 2:45 parameter 'v' of f() is readonly view<f32>, but 'o' holds i32"]);
  });
  it("takes view(a, offset) to the end of a", () => {
    expectDiagnostics("device_fn f(v: readonly view<f32>): f32 { return v[0]; }\ndevice_kernel k(o: global<f32>) { o[0] = f(view(o, 0)); }", []);
  });
  it("takes i32 offsets, lengths and strides only", () => {
    expectDiagnostics("device_fn f(v: readonly view<f32>): f32 { return v[0]; }\ndevice_kernel k(o: global<f32>) { o[0] = f(view(o, 0, 2, 1.5)); }", ["GK3007 2:58 the float constant 1.5 is used where i32 is expected; gk never converts floats to integers implicitly: write i32(1.5)"]);
  });
  it("views a multi-dimensional array in row-major order", () => {
    expectDiagnostics("device_fn f(v: readonly view<f32>): f32 { return v[0]; }\ndevice_kernel k(o: global<f32>) { shared s: f32[2][2]; o[0] = f(view(s, 0, 2)); }", []);
  });
});

describe("ordered accesses and fences", () => {
  it("counts fences' arguments", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { threadfence(1); }", ["GK3004 1:35 threadfence() takes no arguments, but 1 was given"]);
  });
  it("loads f32 with acquire", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { o[0] = loadAcquire(o, 0); }", []);
  });
  it("refuses a release store to a readonly array", () => {
    expectDiagnostics("device_kernel k(o: readonly global<u32>) { storeRelease(o, 0, 1); }", ["GK2007 1:57 storeRelease() writes to 'o': 'o' is readonly (readonly global<u32>); it cannot be written: drop 'readonly' from the parameter if the kernel must write it"]);
  });
  it("refuses ordered accesses to local arrays (GK3017)", () => {
    expectDiagnostics("device_kernel k(o: global<u32>) { let l: u32[2]; o[0] = loadAcquire(l, 0); }", ["GK3017 1:69 loadAcquire() orders accesses to global and shared memory, but 'l' is a local array, private to its thread"]);
  });
  it("refuses ordered accesses to constant memory", () => {
    expectDiagnostics("constant A: u32[2];\ndevice_kernel k(o: global<u32>) { o[0] = loadVolatile(A, 0); }", ["GK3017 2:55 loadVolatile() orders accesses to global and shared memory, but 'A' is constant memory, which no thread writes"]);
  });
});

describe("annotations and module options", () => {
  it("refuses an unroll count of 0 (GK4013)", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { @unroll(0) for (let i = 0; i < 2; i++) {} }", ["GK4013 1:43 the unroll count must be from 1 (no unrolling) to 2147483647, but '0' is 0"]);
  });
  it("refuses @unroll before a statement that is not a loop", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { @unroll o[0] = 1.0; }", ["GK4013 1:35 @unroll applies to the loop after it (for, while, do-while), not to this statement"]);
  });
  it("refuses unknown annotations", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { @inline for (let i = 0; i < 2; i++) {} }", ["GK4013 1:35 unknown annotation '@inline': a statement may be annotated with @unroll or @unroll(N), before a loop"]);
  });
  it("checks an unroll count of a generic kernel's constant parameter in each instance, located", () => {
    expectDiagnostics("device_kernel k<N: i32>(o: global<f32>) { @unroll(N) for (let i = 0; i < 2; i++) {} }\nlaunch k<0>(o = zeros(1)) grid(1) block(1);", [
      "GK4013 1:51 in k<0>: the unroll count must be from 1 (no unrolling) to 2147483647, but 'N' is 0",
    ]);
  });
  it("refuses a run-time unroll count", () => {
    expectDiagnostics("device_kernel k(o: global<f32>, n: i32) { @unroll(n) for (let i = 0; i < 2; i++) {} }", ["GK3014 1:51 the unroll count must be a constant, but 'n' is computed at run time; use a module-level const"]);
  });
  it("refuses @flushToZero twice", () => {
    expectDiagnostics("@flushToZero;\n@flushToZero;\ndevice_kernel k(o: global<f32>) { }", ["GK4013 2:1 @flushToZero is given twice"]);
  });
  it("refuses unknown module options", () => {
    expectDiagnostics("@fastMath;\ndevice_kernel k(o: global<f32>) { }", ["GK4013 1:1 unknown module option '@fastMath': the module option is @flushToZero"]);
  });
  it("takes @flushToZero anywhere at the top level", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { }\n@flushToZero;", []);
  });
});

describe("warp match and fast math", () => {
  it("refuses matchAny on floats, saying how to convert", () => {
    expectDiagnostics("device_kernel k(o: global<f32>) { o[0] = f32(matchAny(o[0])); }", ["GK3005 1:55 matchAny() compares i32, u32, i64, u64 values, but 'o[0]' is f32: convert it, as in matchAny(i32(o[0]))"]);
  });
  it("refuses matchAny on bool", () => {
    expectDiagnostics("device_kernel k(o: global<u32>) { o[0] = matchAny(true); }", ["GK3005 1:51 matchAny() compares i32, u32, i64, u64 values, but 'true' is bool"]);
  });
  it("takes fast builtins on f32 only", () => {
    expectDiagnostics("device_kernel k(o: global<f64>) { o[0] = fastExp(o[1]); }", ["GK3005 1:50 fastExp() takes f32, but 'o[1]' is f64"]);
  });
});

describe("atomics on views (atomicViews.ts)", () => {
  const fn = "device_fn bump(h: view<u32>, b: i32) { atomicAdd(h, b, 1); }\ndevice_fn pass(h: view<u32>) { bump(h, 0); }\n";
  it("takes a view of global or shared memory, a row of a shared array among them, also through another function", () => {
    expectDiagnostics(`${fn}device_kernel k(g: global<u32>) { shared hist: u32[4][8]; hist[0][0] = 0; bump(hist[threadIdx.x % 4], 1); bump(view(g, 2, 4), 0); pass(hist[1]); }`, []);
  });
  it("refuses, at the call, a view of a local array for a view updated atomically, however deep", () => {
    expectDiagnostics(`${fn}device_kernel k(g: global<u32>) { let a: u32[8]; bump(a, 1); pass(view(a, 0)); g[0] = a[1]; }`, [
      "GK3017 3:55 bump() updates its view 'h' atomically, which works on global and shared memory, but 'a' is a local array, private to its thread: pass a view of a global or shared array",
      "GK3017 3:67 pass() updates its view 'h' atomically",
    ]);
  });
  it("refuses f32 atomicAdd and atomicSub on a view, whose subnormals depend on the memory", () => {
    expectDiagnostics("device_fn f(v: view<f32>) { atomicAdd(v, 0, 1.0); }\ndevice_kernel k(g: global<f32>) { f(g); }", [
      "GK3017 1:39 atomicAdd() of f32 flushes subnormals in global memory and keeps them in shared memory, but 'v' is a view, which may be of either: pass the global or shared array itself (a shared T[N] parameter)",
    ]);
  });
  it("says where a row of a shared array goes: a view<T> parameter", () => {
    expectDiagnostics("device_fn f(s: shared u32[8]) { s[0] = 1; }\ndevice_kernel k() { shared hist: u32[4][8]; f(hist[1]); }", [
      "GK3005 2:47 parameter 's' of f() is shared u32[8]: pass a shared array of the kernel by name (a row of one, such as 'hist[1]', goes to a view<u32> parameter)",
    ]);
  });
});
