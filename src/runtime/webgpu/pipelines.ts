/// <reference types="@webgpu/types" />
/**
 * Compute pipelines, made once per WGSL text and pipeline-constant values (the workgroup's
 * size, the lengths of dynamic workgroup arrays) on a device: a shader module per text (its
 * compilation messages, when it has errors, become the error of the launch that needed it),
 * a pipeline per set of override values, with a bind-group layout made from the kernel's
 * bindings (an explicit layout, so that a binding the entry point does not use is still one
 * a bind group may give).
 */
import { GkRuntimeError } from "../errors.js";

/** How a kernel's shader takes a buffer. */
export type BindingKind = "storage" | "read-only-storage" | "uniform";

export interface BindingSlot {
  readonly binding: number;
  readonly kind: BindingKind;
}

/** A WGSL kernel as the runtime compiles it. */
export interface ShaderSource {
  /** The kernel's name in gk, for errors. */
  readonly kernel: string;
  readonly code: string;
  readonly entryPoint: string;
  /** Group 0's bindings. */
  readonly bindings: readonly BindingSlot[];
}

export interface Pipeline {
  readonly pipeline: GPUComputePipeline;
  readonly layout: GPUBindGroupLayout;
}

interface ShaderEntry {
  readonly module: GPUShaderModule;
  /** The WGSL compiler's errors, asked for once (the module's, whichever kernel's launch needs it). */
  readonly checked: Promise<readonly string[]>;
}

/** One entry point of a shader: its bind-group layout and its pipelines by override values. */
interface KernelEntry {
  readonly shader: ShaderEntry;
  readonly layout: GPUBindGroupLayout;
  readonly pipelineLayout: GPUPipelineLayout;
  readonly pipelines: Map<string, Promise<Pipeline>>;
}

/** The pipelines of one device. */
export class PipelineCache {
  private readonly shaders = new Map<string, ShaderEntry>();
  private readonly kernels = new Map<string, Map<string, KernelEntry>>();

  constructor(private readonly device: GPUDevice) {}

  /** The pipeline of `src` with `constants` (override name → value); GK8021 naming the kernel where WebGPU refuses it. */
  pipeline(src: ShaderSource, constants: Readonly<Record<string, number>>): Promise<Pipeline> {
    const kernel = this.kernel(src);
    const key = Object.keys(constants)
      .sort()
      .map((k) => `${k}=${constants[k]}`)
      .join(",");
    let p = kernel.pipelines.get(key);
    if (p === undefined) {
      p = this.make(src, kernel, constants);
      kernel.pipelines.set(key, p);
      // A refused pipeline is asked for again (and refused again, with its error) rather than kept.
      p.catch(() => kernel.pipelines.delete(key));
    }
    return p;
  }

  private kernel(src: ShaderSource): KernelEntry {
    let byEntry = this.kernels.get(src.code);
    if (byEntry === undefined) this.kernels.set(src.code, (byEntry = new Map()));
    const known = byEntry.get(src.entryPoint);
    if (known) return known;
    const layout = this.device.createBindGroupLayout({
      label: src.kernel,
      entries: src.bindings.map((b) => ({ binding: b.binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: b.kind } })),
    });
    const pipelineLayout = this.device.createPipelineLayout({ bindGroupLayouts: [layout] });
    const entry: KernelEntry = { shader: this.shader(src), layout, pipelineLayout, pipelines: new Map() };
    byEntry.set(src.entryPoint, entry);
    return entry;
  }

  private shader(src: ShaderSource): ShaderEntry {
    const known = this.shaders.get(src.code);
    if (known) return known;
    // In an error scope: its compilation messages (below) say what is wrong, where the
    // device would also log the error as uncaptured.
    this.device.pushErrorScope("validation");
    const module = this.device.createShaderModule({ code: src.code, label: src.kernel });
    void this.device.popErrorScope();
    // The compiler's errors, each with its line; empty for a module that compiled.
    const checked = module.getCompilationInfo().then((info) => {
      const lines = src.code.split("\n");
      return info.messages
        .filter((m) => m.type === "error")
        .map((m) => `${m.lineNum}:${m.linePos}: ${m.message}${lines[m.lineNum - 1] !== undefined ? `\n    ${lines[m.lineNum - 1]!.trim()}` : ""}`);
    });
    const entry: ShaderEntry = { module, checked };
    this.shaders.set(src.code, entry);
    return entry;
  }

  private async make(src: ShaderSource, kernel: KernelEntry, constants: Readonly<Record<string, number>>): Promise<Pipeline> {
    const errors = await kernel.shader.checked;
    if (errors.length > 0) {
      throw new GkRuntimeError("GK8021", `the WGSL of kernel '${src.kernel}' (its module's shader) was refused by the WebGPU device (a gk bug: please report it):\n  ${errors.join("\n  ")}`);
    }
    try {
      const pipeline = await this.device.createComputePipelineAsync({
        label: src.kernel,
        layout: kernel.pipelineLayout,
        compute: { module: kernel.shader.module, entryPoint: src.entryPoint, constants: { ...constants } },
      });
      return { pipeline, layout: kernel.layout };
    } catch (e) {
      const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
      throw new GkRuntimeError("GK8021", `kernel '${src.kernel}' cannot run on this WebGPU device with ${describeConstants(constants)}: ${why}`);
    }
  }
}

function describeConstants(c: Readonly<Record<string, number>>): string {
  const keys = Object.keys(c);
  return keys.length === 0 ? "no pipeline constants" : `pipeline constants ${keys.map((k) => `${k} = ${c[k]}`).join(", ")}`;
}
