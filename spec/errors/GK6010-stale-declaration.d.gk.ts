// The types of the .gk file of the same name, imported as a module. Written by `gkc types`; do not edit.
// gk-source-hash: 0000000000000000000000000000000000000000000000000000000000000000
import type { GkModule, LaunchConfig } from "gk";

/** device_kernel k(out: global<f64>) */
declare const k0: (config: LaunchConfig, args: {
  readonly out: Float64Array;
}) => Promise<{ out: Float64Array }>;
/** The module, as compile() returns it. */
declare const module: GkModule & {
  readonly "k": typeof k0;
};
export { k0 as k };
export default module;
