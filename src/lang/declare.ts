/**
 * Writes src/lang/declarations.ts: gk's scalar and vector types, conversions, vector
 * constructors and builtins as TypeScript declarations, from the compiler's own tables
 * (SCALAR_NAMES and allVectorTypes in ir/types.ts, the builtin table in ir/builtins.ts), so that a new type or builtin is declared for TypeScript
 * kernels by adding it there. test/lang/declare.test.ts keeps the file in step (a vitest
 * file snapshot: `npx vitest run test/lang/declare.test.ts -u` rewrites it).
 */
import { builtins, type BuiltinEntry, type MathRule, type ScalarClass } from "../ir/builtins.js";
import { allVectorTypes, isBigIntType, isVectorLane, LANE_COUNTS, laneName, SCALAR_NAMES, scalarType, typeToString, type ScalarName, type VectorType } from "../ir/types.js";
import { assertNever } from "../util.js";

/** The host type of each scalar: the one rule behind ScalarHost. */
export function hostTypeOf(name: ScalarName): "boolean" | "bigint" | "number" {
  const t = scalarType(name);
  return name === "bool" ? "boolean" : isBigIntType(t) ? "bigint" : "number";
}

/** The TypeScript constraint on a class of operand types. */
const CLASS_BOUND: Record<ScalarClass, string> = { float: "number", int: "Num", numeric: "Num", f32: "number" };
const OPERANDS = ["a", "b", "c"];

function doc(text: string): string {
  return `/** ${text.replace(/\*\//g, "*\\/")} */`;
}

function mathSignature(rule: MathRule): string {
  const params = OPERANDS.slice(0, rule.arity).map((p) => `${p}: T`).join(", ");
  const result = rule.result === "operand" ? "T" : rule.result === "bool" ? "bool" : "i32";
  return `<T extends ${CLASS_BOUND[rule.operands.scalars]}>(${params}) => ${result}`;
}

/** One builtin's declaration and host value; undefined for names JavaScript already has (Infinity, NaN). */
function declaration(b: BuiltinEntry): string | undefined {
  const rule = b.rule;
  switch (rule.kind) {
    case "math":
      return `export const ${b.name}: ${mathSignature(rule)} = deviceOnly("${b.name}");`;
    case "atomic": {
      const operands = rule.op === "cas" ? "compare: T, value: T" : "value: T";
      return `export const ${b.name}: <T extends Num>(target: AtomicTarget<T>, index: Num, ${operands}) => T = deviceOnly("${b.name}");`;
    }
    case "sync":
      return `export const ${b.name}: () => void = deviceOnly("${b.name}");`;
    case "warp":
      switch (rule.shape) {
        case "shuffle":
          return `export const ${b.name}: <T extends Num>(${rule.params[0]}: T, ${rule.params[1]}: Num) => T = deviceOnly("${b.name}");`;
        case "vote":
          return `export const ${b.name}: (${rule.params[0]}: boolean) => ${rule.result} = deviceOnly("${b.name}");`;
        case "match":
          return `export const ${b.name}: <T extends Num>(${rule.params[0]}: T) => ${rule.result} = deviceOnly("${b.name}");`;
        case "sync":
          return `export const ${b.name}: () => void = deviceOnly("${b.name}");`;
        case "ldmatrix": {
          const n = Number(b.name[10]);
          return `export const ${b.name}: (arr: OrderedTarget<u32>, i: Num) => ${n === 1 ? "u32" : `u32x${n}`} = deviceOnly("${b.name}");`;
        }
        case "mma": {
          const sigs = rule.mma!.signatures.map((s) => `((a: ${typeToString(s.a)}, b: ${typeToString(s.b)}, c: ${typeToString(s.c)}) => ${typeToString(s.c)})`);
          return `export const ${b.name}: ${sigs.join(" & ")} = deviceOnly("${b.name}");`;
        }
        default:
          return assertNever(rule.shape, "warp shape");
      }
    case "memory": {
      const op = rule.op;
      switch (op) {
        case "fenceBlock":
        case "fenceDevice":
          return `export const ${b.name}: () => void = deviceOnly("${b.name}");`;
        case "loadAcquire":
        case "loadVolatile":
          return `export const ${b.name}: <T extends AnyScalar>(arr: OrderedTarget<T>, i: Num) => T = deviceOnly("${b.name}");`;
        case "storeRelease":
        case "storeVolatile":
          return `export const ${b.name}: <T extends AnyScalar>(arr: OrderedTarget<T>, i: Num, value: T) => void = deviceOnly("${b.name}");`;
        default:
          return assertNever(op, "memory op");
      }
    }
    case "asyncCopy": {
      const op = rule.op;
      switch (op) {
        case "copy":
        case "copyL2": {
          const bytes = op === "copy" ? "4 | 8 | 16" : "16";
          return `export const ${b.name}: <T extends AnyScalar>(dst: { [index: number]: T }, di: Num, src: OrderedTarget<T>, si: Num, bytes: ${bytes}, valid?: Num) => void = deviceOnly("${b.name}");`;
        }
        case "commit":
        case "waitAll":
          return `export const ${b.name}: () => void = deviceOnly("${b.name}");`;
        case "wait":
          return `export const ${b.name}: (n: Num) => void = deviceOnly("${b.name}");`;
        default:
          return assertNever(op, "async copy op");
      }
    }
    case "index":
      return rule.axes ? `export const ${b.name}: Dim3 = deviceIndex("${b.name}");` : `export const ${b.name}: i32 = deviceValue();`;
    case "constant":
      if (rule.type === "float") return undefined;
      return `export const ${b.name}: ${rule.type} = ${String(rule.value)};`;
    case "vector": {
      const params = rule.params;
      const operand = rule.operands === "float" ? "FloatVector" : rule.operands === "float3" ? "Float3Vector" : "BoolVector";
      if (rule.operands === "select") return `export const ${b.name}: <T>(${params[0]}: boolean, ${params[1]}: T, ${params[2]}: T) => T = deviceOnly("${b.name}");`;
      const result = rule.result === "lane" ? "LaneOf<V>" : rule.result === "operand" ? "V" : "bool";
      return `export const ${b.name}: <V extends ${operand}>(${params.map((p) => `${p}: V`).join(", ")}) => ${result} = deviceOnly("${b.name}");`;
    }
    case "vectorMemory":
      return rule.op === "load"
        ? `export const ${b.name}: <T extends LaneScalar>(arr: OrderedTarget<T>, i: Num) => VectorFor<T, ${rule.lanes}> = deviceOnly("${b.name}");`
        : `export const ${b.name}: <T extends LaneScalar>(arr: { [index: number]: T }, i: Num, v: VectorFor<T, ${rule.lanes}>) => void = deviceOnly("${b.name}");`;
    case "cacheHint":
      if (rule.lanes === 1) {
        return rule.op === "load"
          ? `export const ${b.name}: <T>(arr: OrderedTarget<T>, i: Num) => T = deviceOnly("${b.name}");`
          : `export const ${b.name}: <T>(arr: { [index: number]: T }, i: Num, v: T) => void = deviceOnly("${b.name}");`;
      }
      return rule.op === "load"
        ? `export const ${b.name}: <T extends LaneScalar>(arr: OrderedTarget<T>, i: Num) => VectorFor<T, ${rule.lanes}> = deviceOnly("${b.name}");`
        : `export const ${b.name}: <T extends LaneScalar>(arr: { [index: number]: T }, i: Num, v: VectorFor<T, ${rule.lanes}>) => void = deviceOnly("${b.name}");`;
    default:
      return assertNever(rule, "builtin rule");
  }
}

/** A vector type's declarations: its lanes and swizzles (an interface), the type, and its constructor. */
function vectorDeclaration(t: VectorType): string[] {
  const name = typeToString(t);
  const lane = t.elem.name;
  const sibling = (n: number) => (LANE_COUNTS.includes(n as 2) && isVectorLane(t.elem, n) ? `${lane}x${n}` : "never");
  const letters = (family: string) => Array.from({ length: Math.min(t.lanes, 4) }, (_, k) => `"${family[k]}"`).join(" | ");
  const swizzles = (family: string) => `Swizzles<${letters(family)}, ${sibling(2)}, ${sibling(3)}, ${sibling(4)}>`;
  // Lanes 0 to 3 as x y z w (and r g b a); an 8-lane vector's also as s0 to s7, and its halves lo and hi.
  const letters4 = Array.from({ length: Math.min(t.lanes, 4) }, (_, k) => `  ${laneName(k)}?: ${lane};\n  ${"rgba"[k]}?: ${lane};`);
  const eight = t.lanes === 8 ? [...Array.from({ length: 8 }, (_, k) => `  s${k}?: ${lane};`), `  lo?: ${lane}x4;`, `  hi?: ${lane}x4;`] : [];
  const lanes = [...letters4, ...eight].join("\n");
  return [
    doc(`The lanes and swizzles of ${name} (each possibly undefined to TypeScript: write \`v.x!\`).`),
    `export interface ${name}Lanes extends VectorOf<${lane}, ${t.lanes}>, ${swizzles("xyzw")}, ${swizzles("rgba")} {`,
    lanes,
    "}",
    doc(`The gk vector type ${name}: ${t.lanes} lanes of ${lane}; and its constructor ${name}(...) (kernels only).`),
    `export type ${name} = ${hostTypeOf(lane)} & ${name}Lanes;`,
    `export const ${name}: VectorCtor<${name}> = deviceOnly("${name}");`,
  ];
}

/** The text of src/lang/declarations.ts. */
export function declarationsText(): string {
  const lines = [
    "/**",
    " * gk's scalar and vector types, conversions, vector constructors and builtins, declared for",
    " * kernels written in TypeScript.",
    " * GENERATED by src/lang/declare.ts from the compiler's tables: do not edit; run",
    " * `npx vitest run test/lang/declare.test.ts -u` after changing a type or a builtin.",
    " * On the host, conversions convert as in a kernel; vector constructors and the other builtins",
    " * throw (GK8019): a vector argument of a launch is its lanes as a tuple.",
    " */",
    'import type { AnyScalar, AtomicTarget, Cast, Dim3, LaneOf, Num, OrderedTarget, Scalar, ScalarNameOf, Swizzles, VectorCtor, VectorOf } from "./types.js";',
    'import { deviceIndex, deviceOnly, deviceValue, hostCast } from "./host.js";',
    "",
    "/** The host value of each gk scalar type. */",
    "export interface ScalarHost {",
    ...SCALAR_NAMES.map((n) => `  ${n}: ${hostTypeOf(n)};`),
    "}",
    "",
  ];
  for (const n of SCALAR_NAMES) {
    lines.push(doc(`The gk scalar type ${n}, and the conversion ${n}(x).`));
    lines.push(`export type ${n} = Scalar<"${n}">;`);
    lines.push(`export const ${n}: Cast<${n}> = hostCast("${n}");`);
  }
  lines.push(
    doc("bitcast<T>(v): the bits of v (a number or a vector of numbers) as a value of T, a type of as many bits (kernels only)."),
    'export const bitcast: <T>(v: number | bigint) => T = deviceOnly("bitcast");',
    "",
  );
  const vectors = allVectorTypes();
  for (const t of vectors) lines.push(...vectorDeclaration(t));
  const lanesOf = [...new Set(vectors.map((t) => t.elem.name))];
  const named = (pick: (t: VectorType) => boolean) => vectors.filter(pick).map(typeToString).join(" | ");
  lines.push(
    doc("The scalar types vectors have lanes of."),
    `export type LaneScalar = ${lanesOf.join(" | ")};`,
    doc("The vector types of float lanes, of 3 float lanes, and of bool lanes (what dot, cross and any take)."),
    `export type FloatVector = ${named((t) => t.elem.name === "f32" || t.elem.name === "f64")};`,
    `export type Float3Vector = ${named((t) => (t.elem.name === "f32" || t.elem.name === "f64") && t.lanes === 3)};`,
    `export type BoolVector = ${named((t) => t.elem.name === "bool")};`,
    doc("The vector type of N lanes of T: VectorFor<f32, 4> is f32x4."),
    "export interface VectorTypes {",
    ...lanesOf.map((l) => `  ${l}: { ${[...LANE_COUNTS, 8].map((n) => `${n}: ${isVectorLane(scalarType(l), n) ? `${l}x${n}` : "never"}`).join("; ")} };`),
    "}",
    `export type VectorFor<T, N extends 2 | 3 | 4 | 8> = VectorTypes[ScalarNameOf<T> & keyof VectorTypes][N];`,
    "",
  );
  for (const b of builtins) {
    const d = declaration(b);
    if (!d) continue;
    lines.push(doc(b.doc), d);
  }
  return `${lines.join("\n")}\n`;
}
