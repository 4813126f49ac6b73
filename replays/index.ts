export * from "./positions.js";
export * from "./snapshots.js";
export * from "./replayer.js";
export * from "./timeline.js";
export * from "./branches.js";
export * from "./diff.js";
