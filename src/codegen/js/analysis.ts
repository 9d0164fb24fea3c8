/**
 * What the code generator must know about a kernel before it writes any code: which device
 * functions it reaches, which of them (and whether the kernel itself) reach a barrier or a
 * warp operation — those run as generators on the generator path —, whether it starts
 * asynchronous copies (it then runs on generators too), and which thread-index
 * variables each function needs, so that device functions receive exactly those as parameters.
 */
import { indexBuiltin } from "../../ir/builtins.js";
import type { ArrayVar, Function, Module } from "../../ir/nodes.js";
import { constantsRead, dynamicSharedArrays } from "../../ir/kernelMemory.js";
import { visit } from "../../ir/walk.js";
import { invariant } from "../../util.js";

export interface KernelAnalysis {
  readonly kernel: Function;
  /** Device functions the kernel calls, directly or not, callees before callers. */
  readonly deviceFns: readonly Function[];
  /** Names of the functions (the kernel included) that reach a barrier. */
  readonly barrierFns: ReadonlySet<string>;
  /** Names of the functions (the kernel included) that reach a warp operation. */
  readonly warpFns: ReadonlySet<string>;
  /** Names of the functions that reach either: a thread may suspend in them, so they are generators on the generator path. */
  readonly suspendFns: ReadonlySet<string>;
  /** Names of the functions that run a loop, directly or through calls (they count steps). */
  readonly loopFns: ReadonlySet<string>;
  /** Per function, the JS names of the thread-index variables it reads, directly or through calls, sorted. */
  readonly specials: ReadonlyMap<string, readonly string[]>;
  /** The module's `constant` arrays the kernel reads (src/ir/kernelMemory.ts): the launch gives them after the arguments. */
  readonly constants: readonly ArrayVar[];
  /** The kernel's dynamic shared arrays: the launch gives their lengths after the constant arrays. */
  readonly dynamicShared: readonly ArrayVar[];
  /** Whether a device function the kernel calls takes a shared array, a view or a reference: shared arrays then carry their written flags as `$w`. */
  readonly passesMemory: boolean;
  /**
   * Whether the kernel or a function it calls starts asynchronous copies or waits for them: it
   * then runs on generators, and its shared accesses check the copies' states (emitAsync.ts).
   */
  readonly asyncCopies: boolean;
}

interface Direct {
  readonly callees: Set<string>;
  readonly barrier: boolean;
  readonly warp: boolean;
  readonly loop: boolean;
  readonly async: boolean;
  readonly specials: Set<string>;
}

function direct(f: Function): Direct {
  const callees = new Set<string>();
  const specials = new Set<string>();
  let barrier = false;
  let warp = false;
  let loop = false;
  let async = false;
  visit(f.body, {
    stmt: (s) => {
      if (s.kind === "barrier") barrier = true;
      if (s.kind === "loop") loop = true;
      if (s.kind === "asyncCopy" || s.kind === "asyncGroup") async = true;
    },
    expr: (e) => {
      if (e.kind === "call") callees.add(e.callee);
      if (e.kind === "special") specials.add(indexBuiltin(e.name).js(e.axis));
      if (e.kind === "warp") warp = true;
    },
  });
  return { callees, barrier, warp, loop, async, specials };
}

export function analyzeKernel(m: Module, kernelName: string): KernelAnalysis {
  const kernel = m.kernels.find((k) => k.name === kernelName);
  invariant(kernel, `no kernel ${kernelName}`);
  const fns = new Map(m.functions.map((f) => [f.name, f]));
  const info = new Map<string, Direct>();
  const visit = (f: Function): void => {
    if (info.has(f.name)) return;
    const d = direct(f);
    info.set(f.name, d);
    for (const c of d.callees) {
      const callee = fns.get(c);
      invariant(callee, `call of unknown device function ${c}`);
      visit(callee);
    }
  };
  visit(kernel);

  // No recursion (GK4002), so a walk callees-first settles every function once.
  const barrierFns = new Set<string>();
  const warpFns = new Set<string>();
  const loopFns = new Set<string>();
  const specials = new Map<string, readonly string[]>();
  const settle = (name: string): void => {
    if (specials.has(name)) return;
    const d = info.get(name)!;
    const all = new Set(d.specials);
    let barrier = d.barrier;
    let warp = d.warp;
    let loop = d.loop;
    for (const c of d.callees) {
      settle(c);
      specials.get(c)!.forEach((s) => all.add(s));
      if (barrierFns.has(c)) barrier = true;
      if (warpFns.has(c)) warp = true;
      if (loopFns.has(c)) loop = true;
    }
    if (barrier) barrierFns.add(name);
    if (warp) warpFns.add(name);
    if (loop) loopFns.add(name);
    specials.set(name, [...all].sort());
  };
  settle(kernel.name);
  const deviceFns = m.functions.filter((f) => info.has(f.name));
  const suspendFns = new Set([...barrierFns, ...warpFns]);
  const constants = constantsRead(kernel, new Map(deviceFns.map((f) => [f.name, f])));
  const passesMemory = deviceFns.some((f) => f.params.some((p) => p.type.kind === "array" || p.type.kind === "view" || (p.kind === "valueVar" && p.ref)));
  const asyncCopies = [...info.values()].some((d) => d.async);
  return { kernel, deviceFns, barrierFns, warpFns, suspendFns, loopFns, specials, constants, dynamicShared: dynamicSharedArrays(kernel), passesMemory, asyncCopies };
}
