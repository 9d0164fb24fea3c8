export * from "./source.js";
export * from "./diagnostic.js";
export * from "./catalog.js";
export * from "./format.js";
