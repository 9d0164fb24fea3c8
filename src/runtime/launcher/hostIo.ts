/**
 * What process isolation takes from the in-process addon where it is built (native/hostio.cpp;
 * no GPU is touched): waiting for the launcher's answer without sleeping, and the shared file
 * mapped into this process. Without the addon (not built, or GK_HOST_IO=0) the launcher is
 * driven as before: answers wake Node through its event loop, and arrays go through the
 * shared file by write and read calls. Both give the same results; the addon's way is faster
 * (spec/launcher-protocol.md, "Shared files"; bench/README.md).
 */
import { loadAddon, type Addon } from "../device/addon.js";

export type HostIo = Pick<Addon, "readReady" | "mapFile" | "unmapFile" | "copy">;

let io: HostIo | null | undefined;

/** The addon's host helpers, or undefined where the addon cannot be loaded or GK_HOST_IO=0 turns them off. */
export function hostIo(): HostIo | undefined {
  if (io === undefined) {
    const got = process.env.GK_HOST_IO === "0" ? undefined : loadAddon();
    io = got !== undefined && "addon" in got ? got.addon : null;
  }
  return io ?? undefined;
}
