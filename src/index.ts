/** gk's public TypeScript API. */
export * from "./diagnostics/index.js";
