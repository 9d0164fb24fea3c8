/**
 * Large arrays travel between the client and the launcher through a shared file rather than
 * through the pipes as base64 or payloads (spec: "Shared files"). The client puts an array's
 * bytes into the file once; the launcher maps the file and copies between the mapping and the
 * GPU; results are read from the file straight into a TypedArray. Where the addon's host
 * helpers are there (hostIo.ts), the client maps the file too and copies with several
 * threads; otherwise it writes and reads the file with system calls.
 *
 * The file never has a name anyone could find: it is made with O_TMPFILE where the file system
 * allows (tmpfs does), else made and unlinked at once, and the launcher inherits its descriptor
 * as fd 3. Nothing is left behind, whichever process ends first or how. It lives in /dev/shm
 * (memory) where that exists, else in the OS's temporary folder.
 */
import { randomBytes } from "node:crypto";
import { accessSync, close, closeSync, constants, ftruncateSync, openSync, readSync, statSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launcherFailed } from "./errors.js";
import type { HostIo } from "./hostIo.js";

/** The descriptor the launcher inherits the shared file as. */
export const SHARED_FD = 3;
/** Arrays of at least this many bytes go through the shared file by default. */
export const DEFAULT_SHARED_MIN_BYTES = 1 << 16;

const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY; // Linux's __O_TMPFILE | O_DIRECTORY
const ALIGN = 4096;
const GROW = 1 << 20;
const SHRINK_ABOVE = 64 << 20;

let defaultDir: string | undefined;

/** `dir`, else /dev/shm where it is a writable folder, else the OS's temporary folder. */
export function sharedDir(dir?: string): string {
  if (dir !== undefined) return dir;
  if (defaultDir === undefined) {
    defaultDir = tmpdir();
    try {
      accessSync("/dev/shm", constants.W_OK);
      if (statSync("/dev/shm").isDirectory()) defaultDir = "/dev/shm";
    } catch {
      // no /dev/shm: the temporary folder it is
    }
  }
  return defaultDir;
}

/** Rounds up to the alignment of array places in the file (a page, which the launcher maps). */
export function alignUp(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

/** Where one array lies in the shared file, as the protocol spells it. */
export interface FilePlace {
  readonly fd: number;
  readonly offset: number;
}

export class SharedFile {
  private bytes = 0;
  private closed = false;
  /** The file mapped into this process (with `io`), made at the first copy after a resize. */
  private mapping: Uint8Array | undefined;

  private constructor(
    readonly fd: number,
    private readonly dir: string,
    private io: HostIo | undefined,
  ) {}

  /**
   * A new, empty shared file, or undefined where none can be made (the pipes carry everything
   * then). `named`: skip O_TMPFILE, as on a file system without it. `io`: the addon's host
   * helpers, to map the file and copy with threads (else system calls copy).
   */
  static create(dir?: string, named = false, io?: HostIo): SharedFile | undefined {
    if (process.platform !== "linux") return undefined; // the launcher and O_TMPFILE are Linux's
    const d = sharedDir(dir);
    if (!named) {
      try {
        return new SharedFile(openSync(d, O_TMPFILE | constants.O_RDWR, 0o600), d, io);
      } catch {
        // a file system without O_TMPFILE: a named file, unlinked before anyone else can use it
      }
    }
    const path = join(d, `gk-launcher-${process.pid}-${randomBytes(6).toString("hex")}`);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
    } catch {
      return undefined;
    }
    try {
      unlinkSync(path);
    } catch {
      closeSync(fd);
      return undefined;
    }
    return new SharedFile(fd, d, io);
  }

  get size(): number {
    return this.bytes;
  }

  /**
   * Sizes the file for `bytes` bytes of arrays: grows it (with room to spare, so a session
   * does not regrow it for every size), or shrinks it when it is far larger than needed.
   * False when the file system lacks the space: the caller sends those arrays by pipe.
   */
  fit(bytes: number): boolean {
    let want = this.bytes;
    if (bytes > this.bytes) want = Math.ceil(Math.max(bytes, this.bytes * 1.25) / GROW) * GROW;
    else if (this.bytes > SHRINK_ABOVE && bytes * 4 < this.bytes) want = Math.ceil(bytes / GROW) * GROW;
    if (want === this.bytes) return true;
    if (want > this.bytes) {
      try {
        const fs = statfsSync(this.dir);
        if ((want - this.bytes) * 1.1 > fs.bavail * fs.bsize) return false;
      } catch {
        // statfs unavailable: writing will tell
      }
    }
    this.unmap(); // before the size changes: pages past a shrunk end would fault
    try {
      ftruncateSync(this.fd, want);
    } catch {
      return false;
    }
    this.bytes = want;
    return true;
  }

  /** The file's bytes mapped into this process, or undefined without the host helpers (or when mapping fails: system calls copy from then on). */
  private mapped(end: number): Uint8Array | undefined {
    if (this.io === undefined || end > this.bytes || this.closed) return undefined;
    if (this.mapping === undefined) {
      try {
        this.mapping = new Uint8Array(this.io.mapFile(this.fd, this.bytes));
      } catch {
        this.io = undefined;
        return undefined;
      }
    }
    return this.mapping;
  }

  private unmap(): void {
    if (this.mapping === undefined) return;
    const m = this.mapping;
    this.mapping = undefined;
    this.io!.unmapFile(m.buffer as ArrayBuffer);
  }

  /** Writes `data` at `offset`; false if the file system refuses (no space). */
  write(offset: number, data: Uint8Array): boolean {
    const map = this.mapped(offset + data.byteLength);
    if (map !== undefined) {
      this.io!.copy(map.subarray(offset, offset + data.byteLength), data);
      return true;
    }
    let done = 0;
    try {
      while (done < data.byteLength) done += writeSync(this.fd, data, done, data.byteLength - done, offset + done);
    } catch {
      return false;
    }
    return true;
  }

  /** Fills `target` from the file at `offset`. */
  readInto(offset: number, target: Uint8Array): void {
    const map = this.mapped(offset + target.byteLength);
    if (map !== undefined) {
      this.io!.copy(target, map.subarray(offset, offset + target.byteLength));
      return;
    }
    let done = 0;
    while (done < target.byteLength) {
      const n = readSync(this.fd, target, done, target.byteLength - done, offset + done);
      if (n === 0) throw launcherFailed(`the shared file ended at byte ${offset + done}; expected ${target.byteLength} bytes at ${offset}`);
      done += n;
    }
  }

  /**
   * Closes the file. Its memory is freed when the launcher has let go of it too; that takes a
   * while for hundreds of megabytes, so it happens off the main thread.
   */
  close(): void {
    if (this.closed) return;
    this.unmap();
    this.closed = true;
    close(this.fd, () => undefined);
  }
}

/** A place in the shared file for one transfer: `at` is its offset, or undefined when it goes by pipe. */
export interface Slot {
  at: number | undefined;
}

/**
 * The transfers of one request (or batch of requests) that go through the shared file: those
 * of at least `min` bytes, laid out one after another at page boundaries. Uploads are written
 * at commit(); a transfer the file cannot take (no space) falls back to the pipe.
 */
export class FilePlan {
  private end = 0;
  private readonly slots: Slot[] = [];
  private readonly uploads: { slot: Slot; data: Uint8Array }[] = [];

  constructor(private readonly min: number) {}

  /** An upload of `data`. */
  put(data: Uint8Array): Slot {
    const slot = this.reserve(data.byteLength);
    if (slot.at !== undefined) this.uploads.push({ slot, data });
    return slot;
  }

  /** Room for `bytes` bytes coming back. */
  reserve(bytes: number): Slot {
    if (bytes < this.min) return { at: undefined };
    const slot = { at: this.end };
    this.end = alignUp(this.end + bytes);
    this.slots.push(slot);
    return slot;
  }

  /** Whether any transfer was planned for the file. */
  get wanted(): boolean {
    return this.slots.length > 0;
  }

  /** Sizes `file` for the plan and writes the uploads; the slots that cannot be had go by pipe. */
  commit(file: SharedFile | undefined): void {
    if (!this.wanted) return;
    if (file === undefined || !file.fit(this.end)) {
      for (const s of this.slots) s.at = undefined;
      return;
    }
    for (const u of this.uploads) {
      if (!file.write(u.slot.at!, u.data)) u.slot.at = undefined;
    }
  }
}
