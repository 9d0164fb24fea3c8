/**
 * The Node-API addon (native/addon.cpp, built by scripts/build-native.mjs): what it offers, and
 * loading it, or saying why it cannot be loaded. The in-process engine (native.ts) drives the
 * GPU through it; the launcher client's host helpers (launcher/hostIo.ts) use the part of it
 * that touches no GPU.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageRoot } from "../launcher/process.js";

export interface Addon {
  open(gpu: number): string;
  close(gpu: number): void;
  alloc(gpu: number, bytes: number): number;
  free(gpu: number, ptr: number): void;
  upload(gpu: number, ptr: number, offset: number, data: Uint8Array): void;
  download(gpu: number, ptr: number, offset: number, into: Uint8Array): void;
  /** Sets `count` elements of `pattern.length` bytes at ptr + offset to `pattern`, queued on the legacy default stream. */
  fill(gpu: number, ptr: number, offset: number, pattern: Uint8Array, count: number): void;
  /** Copies `bytes` bytes device to device, queued on the legacy default stream. */
  deviceCopy(gpu: number, dst: number, src: number, bytes: number): void;
  load(gpu: number, image: Uint8Array, path: string): number;
  kernel(gpu: number, module: number, symbol: string, name: string): number;
  launch(gpu: number, kernel: number, block: Uint8Array): void;
  constants(gpu: number, kernel: number, symbol: string, data: Uint8Array): void;
  queue(gpu: number): number;
  poll(gpu: number, queue: number, spinUs: number): number[] | null;
  wait(gpu: number, queue: number, timeoutMs: number): Promise<void>;
  memory(gpu: number): [number, number];
  hostArray(gpu: number, bytes: number): ArrayBuffer;
  /** Host helpers that touch no GPU (native/hostio.cpp), for process isolation: src/runtime/launcher/hostIo.ts. */
  readReady(fd: number, into: Uint8Array, spinUs: number): number;
  mapFile(fd: number, bytes: number): ArrayBuffer;
  unmapFile(buffer: ArrayBuffer): void;
  copy(dst: Uint8Array, src: Uint8Array): void;
}

/** The addon's file: $GK_NATIVE_ADDON, else native/build/Release/gk_native.node in the package. */
export function addonPath(): string {
  return process.env.GK_NATIVE_ADDON ?? join(packageRoot(), "native", "build", "Release", "gk_native.node");
}

let loaded: { addon: Addon } | { why: string } | undefined;

/** The addon, or why it cannot be loaded (not built, or built for another Node.js). */
export function loadAddon(): { addon: Addon } | { why: string } {
  if (loaded) return loaded;
  const path = addonPath();
  if (!existsSync(path)) return (loaded = { why: `the in-process addon is not built (${path} is missing: npm run build:native builds it, with g++)` });
  try {
    loaded = { addon: createRequire(import.meta.url)(path) as Addon };
  } catch (e) {
    loaded = { why: `the in-process addon ${path} cannot be loaded: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` };
  }
  return loaded;
}
