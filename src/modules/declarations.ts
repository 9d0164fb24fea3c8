/**
 * `saxpy.d.gk.ts`: the TypeScript declaration of an imported `.gk` file (written by `gkc
 * types` and gk/vite), read by TypeScript 5 with `allowArbitraryExtensions`. Each kernel is
 * a typed function: its arguments by parameter name (`i8 u8 i16 u16 i32 u32 f16 bf16 f32
 * f64` → number, `i64 u64` → bigint, `bool` → boolean, `global<f32>` → a Float32Array or a
 * GpuArray<"f32">, `global<f16>` → a Uint16Array of f16 bits or a GpuArray<"f16">, `global<f32x4>`
 * → a Float32Array of lanes, a GpuArray<"f32"> of lanes or a GpuArray<"f32x4">,
 * `readonly global<f32>` → also a read-only view of a Float32Array), its outputs by name, of
 * the types given; a generic kernel is typed by its generic parameters (`with({ T: "f32",
 * BLOCK: 256 })`, whose instance is a KernelFn); each constant has its value's literal type
 * (a table: a read-only view of its TypedArray, f16 and bf16 tables holding their bits).
 * The types come from two tables: the host type of each scalar (lang/declare.ts) and the
 * TypedArray of each element type (ir/values.ts).
 */
import type { SourceMap } from "../diagnostics/source.js";
import type { ExportedConstant, Function, GenericKernel, Module } from "../ir/nodes.js";
import { constantLength, constantsRead, dynamicSharedArrays } from "../ir/kernelMemory.js";
import { genericParamList } from "../runtime/instances.js";
import { asScalar, typeToString, type ArrayType, type ScalarType, type ScalarValue, type StructType, type ValueType } from "../ir/types.js";
import { assertNever, codeLiteral } from "../util.js";
import { typedArrayName } from "../ir/values.js";
import { hostTypeOf } from "../lang/declare.js";
import { HASH_PREFIX, moduleShape, sourceHash } from "./shape.js";

type Param = Function["params"][number];

/**
 * The host form of a value: a scalar's host type, a vector's lanes as a tuple, a struct as a
 * plain object of its fields' host forms (api.ts takes these; spec/runtime-api.md).
 */
function valueType(t: ValueType | ArrayType): string {
  switch (t.kind) {
    case "array": // a struct's array field: an array (of arrays, per dimension) of its elements
      return t.dims.reduce((inner) => `readonly (${inner})[]`, valueType(t.elem));
    case "scalar":
      return hostTypeOf(t.name);
    case "vector":
      return `readonly [${Array.from({ length: t.lanes }, () => hostTypeOf(t.elem.name)).join(", ")}]`;
    case "struct":
      return `{ ${t.fields.map((f) => `readonly ${f.name}: ${valueType(f.type)}`).join("; ")} }`;
    default:
      return assertNever(t, "value type");
  }
}

/**
 * The host type of a kernel parameter, as an argument: a value's, or the arrays an array
 * parameter takes: of scalars, a TypedArray or a GPU array; of vectors, the TypedArray of
 * their lanes (four for a 3-lane vector), a GPU array of them or a plain array of vectors; of
 * structs, their bytes (packStructs), a GPU array of them or a plain array of objects.
 */
function argType(p: Param): string {
  if (p.kind === "valueVar") return valueType(p.type as ValueType);
  const elem = p.type.elem;
  const readonly = p.type.kind === "global" && p.type.readonly;
  if (elem.kind === "struct") return `${readonly ? "ReadonlyView<ArrayBuffer> | " : ""}ArrayBuffer | ArrayBufferView | GpuArray | readonly ${valueType(elem)}[]`;
  if (elem.kind === "vector") {
    const lanes = typedArrayName(elem.elem.name);
    return `${readonly ? `ReadonlyView<${lanes}>` : lanes} | GpuArray<"${elem.elem.name}"> | GpuArray<"${typeToString(elem)}"> | readonly ${valueType(elem)}[]`;
  }
  const name = (elem as ScalarType).name;
  const array = typedArrayName(name);
  const gpu = `GpuArray<"${name}">`;
  return readonly ? `ReadonlyView<${array}> | ${gpu}` : `${array} | ${gpu}`;
}

const writes = (p: Param) => p.kind === "arrayVar" && p.type.kind === "global" && !p.type.readonly;

/**
 * A kernel's function type: each array it writes is a type parameter, so its output has the
 * type of the array given; the constant arrays it reads are arguments too, by name (their
 * TypedArray or plain values); its dynamic shared arrays' lengths are required by name in the
 * configuration (KernelLaunchConfig), which takes none when it has none.
 */
function kernelType(fn: Function, ir: Module): string {
  const out = new Map(fn.params.filter(writes).map((p, i) => [p.name, `A${i}`]));
  const typeParams = fn.params.filter(writes).map((p) => `${out.get(p.name)} extends ${argType(p)}`);
  const args = fn.params.map((p) => `  readonly ${p.name}: ${out.get(p.name) ?? argType(p)};`);
  for (const c of constantsRead(fn, new Map(ir.functions.map((f) => [f.name, f])))) {
    const elem = asScalar(c.type.elem).name;
    args.push(`  /** constant ${c.name}: ${elem}, ${constantLength(c)} elements */`, `  readonly ${c.name}: ReadonlyView<${typedArrayName(elem)}> | readonly ${hostTypeOf(elem)}[];`);
  }
  const shared = dynamicSharedArrays(fn).map((a) => codeLiteral(a.name));
  const config = shared.length ? `KernelLaunchConfig<${shared.join(" | ")}>` : "KernelLaunchConfig";
  const outputs = [...out].map(([name, t]) => `${name}: ${t}`);
  const generic = typeParams.length ? `<${typeParams.join(", ")}>` : "";
  return `${generic}(config: ${config}, args: {\n${args.join("\n")}\n}) => Promise<{ ${outputs.join("; ")}${outputs.length ? " " : ""}}>`;
}

/** A generic kernel's type: its generic parameters, by name, as with() takes them. */
function genericType(g: GenericKernel): string {
  const params = g.params.map((p) => `${p.name}: ${p.kind === "typeParam" ? p.allowed.map((t) => codeLiteral(typeToString(t))).join(" | ") : hostTypeOf(p.type.name)}`);
  return `GenericKernelFn<{ ${params.join("; ")} }>`;
}

/** A scalar's literal type where TypeScript has one (`16`, `0.5`, `-3n`, `true`), else its host type. */
function literalType(v: ScalarValue, host: string): string {
  if (typeof v === "boolean") return String(v);
  if (typeof v === "bigint") return `${v}n`;
  return Number.isFinite(v) && !Object.is(v, -0) ? String(v) : host;
}

function constantType(c: ExportedConstant): string {
  if (c.type === "int") return literalType(Number.isSafeInteger(Number(c.value)) ? Number(c.value) : (c.value as bigint), "number");
  if (c.type === "float") return literalType(c.value as number, "number");
  if (c.type.kind === "array") return `ReadonlyView<${typedArrayName(asScalar(c.type.elem).name)}>`;
  return literalType(c.value as ScalarValue, hostTypeOf(c.type.name));
}

function constantDoc(c: ExportedConstant): string {
  if (c.type === "int" || c.type === "float") return `const ${c.name} (an untyped ${c.type === "int" ? "integer" : "float"} constant)`;
  return `const ${c.name}: ${typeToString(c.type)}`;
}

function kernelDoc(fn: Function): string {
  return `device_kernel ${fn.name}(${fn.params.map((p) => `${p.name}: ${typeToString(p.type)}`).join(", ")})`;
}

/** The declaration of `file` (a checked .gk program). */
export function declarationText(file: string, ir: Module, sources: SourceMap): string {
  const shape = moduleShape(ir);
  // The file is named by where the declaration is (beside it, of the same name), not in its text: a name may hold anything.
  const lines = [
    "// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.",
    `${HASH_PREFIX}${sourceHash(file, sources)}`,
    `import type { ${["GkModule", ...(shape.generics.length ? ["GenericKernelFn"] : []), "GpuArray", ...(shape.kernels.length ? ["KernelLaunchConfig"] : []), "ReadonlyView", ...(ir.structs.length ? ["StructLayout"] : [])].join(", ")} } from "gk";`,
    "",
  ];
  for (const k of shape.kernels) lines.push(`/** ${kernelDoc(k.fn)} */`, `declare const ${k.local}: ${kernelType(k.fn, ir)};`);
  for (const g of shape.generics) lines.push(`/** device_kernel ${g.name}${genericParamList(g.generic)}: run an instance, ${g.name}.with({ ... })(config, args) */`, `declare const ${g.local}: ${genericType(g.generic)};`);
  for (const c of shape.constants) lines.push(`/** ${constantDoc(c.constant)} */`, `declare const ${c.local}: ${constantType(c.constant)};`);
  const members = [...shape.kernels, ...shape.generics].map((k) => `  readonly ${codeLiteral(k.name)}: typeof ${k.local};`);
  // The struct types by name (the module's structs member, for packStructs and unpackStructs), each with its host form.
  const structs = new Map<string, StructType>();
  for (const t of ir.structs) if (!structs.has(t.name)) structs.set(t.name, t);
  if (structs.size) members.push(`  readonly structs: {\n${[...structs.values()].map((t) => `    readonly ${codeLiteral(t.name)}: StructLayout<${valueType(t)}>;`).join("\n")}\n  };`);
  lines.push("/** The module, as compile() returns it. */", `declare const module: GkModule & {\n${members.join("\n")}${members.length ? "\n" : ""}};`);
  const names = [...shape.kernels, ...shape.generics, ...shape.constants].map((x) => `${x.local} as ${x.name}`);
  if (names.length) lines.push(`export { ${names.join(", ")} };`);
  lines.push("export default module;", "");
  return lines.join("\n");
}
