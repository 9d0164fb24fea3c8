/** Checking structs (src/check: fileScope.ts, access.ts, expr.ts): declarations, layout, values, fields, arrays of structs, parameters and results. */
import { describe, expect, it } from "vitest";
import { checkSource, diagnosticLines, expectError, irOf, printed } from "../helpers.js";
import { sizeOf } from "../../src/ir/types.js";
import { cudaOf } from "../codegen/cuda/helpers.js";

const NODE = "struct Node { start: i32; edges: i32; }\n";
const PARTICLE = "struct Particle { pos: f32x3, vel: f32x3, mass: f32, id: i32, taps: f32[2][2] }\n";

/** The printed IR of kernel k's body (its statements only). */
function body(src: string): string[] {
  const lines = printed(src).split("\n");
  const start = lines.findIndex((l) => l.startsWith("kernel k("));
  return lines.slice(start + 1, lines.indexOf("}", start)).map((l) => l.trim());
}

describe("struct declarations", () => {
  it("lays fields out as C does, with natural alignment, fields separated by ; or ,", () => {
    const m = irOf(`${NODE}${PARTICLE}struct Mixed { flag: bool, x: f64, n: Node, v: f32x2 }\ndevice_kernel k(a: global<Mixed>, b: global<Particle>) {}\n`);
    const [node, particle, mixed] = m.structs;
    expect(node!.fields.map((f) => f.offset)).toEqual([0, 4]);
    expect(particle!.fields.map((f) => [f.name, f.offset])).toEqual([["pos", 0], ["vel", 16], ["mass", 32], ["id", 36], ["taps", 40]]);
    expect([sizeOf(particle!), particle!.align]).toEqual([64, 16]);
    expect(mixed!.fields.map((f) => f.offset)).toEqual([0, 8, 16, 24]);
    expect([mixed!.size, mixed!.align]).toEqual([32, 8]);
  });

  it("resolves structs in any order, orders the module's structs after those they contain, and imports them", () => {
    const m = irOf(`import { Node } from "./lib.gk";\nstruct Graph { first: Node; nodes: Node[4]; }\ndevice_kernel k(g: global<Graph>) {}\n`, { "lib.gk": NODE });
    expect(m.structs.map((t) => t.name)).toEqual(["Node", "Graph"]);
  });

  it("reports structs that contain themselves, have no fields, or repeat a field", () => {
    expectError("struct A { b: B; }\nstruct B { a: A[2]; }\n", "GK2040 1:8 struct 'A' contains itself");
    expectError("struct E {}\n", "GK2040 1:8 struct 'E' has no fields");
    expectError("struct D { a: i32; a: f32; }\n", "GK2002 1:20 field 'a' is declared twice in struct 'D'");
    expectError("struct G { a: global<f32>; }\n", "GK4007 1:15 global<T> is the type of a kernel or device_fn parameter");
    expectError("struct f32x4 { a: i32; }\n", "GK2009 1:8 'f32x4' is a reserved name");
  });

  it("refuses a struct nested more than 100 structs deep, as brackets are (GK1014), located, and takes one 100 deep to CUDA", () => {
    const chain = (n: number) => `struct S0 { x: f32 }\n${Array.from({ length: n - 1 }, (_, i) => `struct S${i + 1} { s: S${i}[1] }\n`).join("")}device_kernel k(o: global<S${n - 1}>) {}\n`;
    expectError(chain(2000), "GK1014 101:8 struct 'S100' nests 101 structs deep; a struct nests at most 100 deep, as brackets do: flatten some of its fields");
    expect(cudaOf(chain(100))).toContain("struct S99 {");
  });

  it("refuses fields of the 1- and 2-byte scalars, also as array fields (GK2041)", () => {
    expectError("struct S { a: f32; h: f16; }\ndevice_kernel k(s: S) {}\n", "GK2041 1:23 field 'h' of struct 'S' is of f16: struct fields hold bool, i32, u32, i64, u64, f32 or f64 values, vectors and structs, not the 1- and 2-byte types; use f32");
    expectError("struct S { b: u8[4]; }\ndevice_kernel k(s: S) {}\n", "GK2041 1:15 field 'b' of struct 'S' is of u8");
  });

  it("reports a struct where a value is expected, and a call of it", () => {
    expectError(`${NODE}device_kernel k(out: global<i32>) { out[0] = Node; }\n`, "GK2008 2:46 'Node' is a struct type, not a value");
    expectError(`${NODE}device_kernel k(out: global<Node>) { out[0] = Node(1, 2); }\n`, "GK2004 2:47 'Node' is a struct type, not a function");
  });
});

describe("struct values", () => {
  it("takes a struct literal where a struct is expected: fields in any order, arrays for array fields", () => {
    expect(body(`${PARTICLE}device_kernel k(ps: global<Particle>, s: f32) {\n  let p: Particle = { id: 1, mass: s, taps: [[1, 2], [3, 4]], vel: f32x3(0), pos: f32x3(s, 1, 2) };\n  ps[0] = p;\n  ps[1] = { pos: p.vel, vel: p.pos, mass: 0, id: 2, taps: [0, 0, 0, 0] };\n}\n`)).toEqual([
      "let p: Particle = Particle{f32x3{s, 1:f32, 2:f32}, f32x3{0:f32}, s, 1:i32, 1:f32, 2:f32, 3:f32, 4:f32};",
      "ps[0:i32] = p;",
      "ps[1:i32] = Particle{p.vel, p.pos, 0:f32, 2:i32, 0:f32, 0:f32, 0:f32, 0:f32};",
    ]);
  });

  it("starts a struct local at zero", () => {
    expect(body(`${NODE}device_kernel k(out: global<Node>) {\n  let n: Node;\n  out[0] = n;\n}\n`)).toEqual(["let n: Node = zero.Node;", "out[0:i32] = n;"]);
  });

  it("reports missing, unknown and repeated fields, and literals without a struct type", () => {
    expectError(`${NODE}device_kernel k(out: global<Node>) { out[0] = { start: 1 }; }\n`, "GK3040 2:47 this Node value lacks 'edges'");
    expectError(`${NODE}device_kernel k(out: global<Node>) { out[0] = { start: 1, edge: 2, edges: 3 }; }\n`, "GK2005 2:59 Node has no field 'edge'; did you mean 'edges'?");
    expectError(`${NODE}device_kernel k(out: global<Node>) { out[0] = { start: 1, start: 2, edges: 3 }; }\n`, "GK2002 2:59 field 'start' is given twice");
    expectError(`${NODE}device_kernel k(out: global<Node>) { let n = { start: 1, edges: 2 }; }\n`, "GK3040 2:46 a struct value needs its type written here");
    expectError(`${NODE}device_kernel k(out: global<i32>) { out[0] = { start: 1, edges: 2 }; }\n`, "GK3040 2:46 a struct value { ... } where i32 is expected");
    expectError(`${NODE}device_kernel k(out: global<Node>) { out[0] = { start: 1.5, edges: 2 }; }\n`, "GK3007 2:56 the float constant 1.5 is used where i32 is expected");
  });

  it("has no operators, and a value of one struct type is never another", () => {
    expectError(`${NODE}device_kernel k(a: global<Node>, out: global<bool>) { out[0] = a[0] == a[1]; }\n`, "GK3003 2:69 '==' does not compare structs (Node); compare their fields");
    expectError(`${NODE}struct Other { start: i32; edges: i32; }\ndevice_kernel k(a: global<Node>, b: global<Other>) { a[0] = b[0]; }\n`, "GK3001 3:61 'a[0]' is Node, but 'b[0]' is Other; gk never converts implicitly: a value of one struct type is never another");
  });
});

describe("fields", () => {
  it("reads and writes fields of locals, elements and array fields, and the lanes of vector fields", () => {
    expect(body(`${PARTICLE}device_kernel k(ps: global<Particle>, i: i32) {\n  let p = ps[i];\n  p.taps[1][i] += p.pos.y;\n  ps[i].vel.z = p.taps[0][1];\n  ps[i].taps[i][0] = ps[0].mass;\n}\n`)).toEqual([
      "let p: Particle = ps[i];",
      "p.taps[1:i32][i] = p.taps[1:i32][i] +.f32 p.pos.y;",
      "ps[i].vel.z = p.taps[0:i32][1:i32];",
      "ps[i].taps[i][0:i32] = ps[0:i32].mass;",
    ]);
  });

  it("evaluates an index with effects once in a compound assignment of a field", () => {
    const out = body(`${PARTICLE}device_fn f(a: global<i32>): i32 { a[0] += 1; return a[0] % 2; }\ndevice_kernel k(ps: global<Particle>, a: global<i32>) {\n  ps[f(a)].taps[f(a)][0] *= 2.0;\n}\n`);
    expect(out).toEqual([
      "{",
      "const ps_i0: i32 = f(a);",
      "const ps_i1: i32 = f(a);",
      "ps[ps_i0].taps[ps_i1][0:i32] = ps[ps_i0].taps[ps_i1][0:i32] *.f32 2:f32;",
      "}",
    ]);
  });

  it("reports unknown fields, members of scalars, whole array fields and writes to readonly data", () => {
    expectError(`${PARTICLE}device_kernel k(ps: global<Particle>) { ps[0].mas = 1.0; }\n`, "GK2005 2:47 Particle has no field 'mas'; did you mean 'mass'?");
    expectError(`${PARTICLE}device_kernel k(ps: global<Particle>) { ps[0].mass.x = 1.0; }\n`, "GK2005 2:52 'ps[0].mass' is f32, which has no members");
    expectError(`${PARTICLE}device_kernel k(ps: global<Particle>, out: global<f32>) { out[0] = ps[0].taps; }\n`, "GK3013 2:68 'ps[0].taps' is an array (f32[2][2]); arrays are not values: index it");
    expectError(`${PARTICLE}device_kernel k(ps: global<Particle>, out: global<f32>) { out[0] = ps[0].taps[1]; }\n`, "GK3008 2:68 'ps[0].taps[1]' has 2 dimensions (f32[2][2]) but is indexed with 1");
    expectError(`${PARTICLE}device_kernel k(ps: readonly global<Particle>) { ps[0].mass = 1.0; }\n`, "GK2007 2:50 'ps' is readonly (readonly global<Particle>)");
    expectError(`${NODE}device_kernel k(p: Node) { const q = p; q.start = 1; }\n`, "GK2006 2:41 cannot assign to 'q.start': 'q' is a const");
    expectError(`${NODE}device_fn f(): Node { let n: Node; return n; }\ndevice_kernel k() { f().start = 1; }\n`, "GK1012 3:21 cannot assign here: 'f().start' is part of a computed value");
  });
});

describe("structs in parameters, results, shared and local memory", () => {
  it("passes and returns structs, so a device_fn can give several results", () => {
    const src = `struct DivMod { q: i32; r: i32; }\ndevice_fn divmod(a: i32, b: i32): DivMod { return { q: a / b, r: a % b }; }\ndevice_kernel k(out: global<i32>, n: i32) {\n  const d = divmod(n, 7);\n  out[0] = d.q + divmod(n, 3).r;\n}\n`;
    const m = irOf(src);
    expect(m.functions[0]!.returnType).toBe(m.structs[0]);
  });

  it("takes shared and local arrays of structs, and a shared struct", () => {
    expect(body(`${NODE}device_kernel k(out: global<Node>) {\n  shared s: Node[32];\n  shared one: Node;\n  let l: Node[2];\n  s[threadIdx.x] = l[1];\n  one.edges = 1;\n  barrier();\n  out[0] = { start: s[0].start, edges: one.edges };\n}\n`)).toEqual([
      "shared s: Node[32];",
      "shared one: Node[1];",
      "let l: local Node[2];".replace("local ", ""),
      "s[threadIdx.x] = l[1:i32];",
      "one[0:i32].edges = 1:i32;",
      "barrier();",
      "out[0:i32] = Node{s[0:i32].start, one[0:i32].edges};",
    ]);
  });

  it("counts a kernel's struct parameters as their scalars against the launcher's 1024 arguments", () => {
    const big = "struct Big { a: f32[600]; }\n";
    expectError(`${big}device_kernel k(p: Big, q: Big) {}\n`, "GK4007 2:25 'k' takes more than 1024 kernel arguments");
    expect(diagnosticLines(checkSource(`${big}device_fn f(p: Big, q: Big): f32 { return p.a[0] + q.a[0]; }\n`))).toEqual([]);
  });
});
