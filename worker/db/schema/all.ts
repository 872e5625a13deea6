// The one module that gathers every table, for drizzle's relational typing (not a re-export barrel
// for app code: import tables from their own files).
export * from "./folders";
export * from "./notes";
export * from "./social";
export * from "./users";
export * from "./jobs";
export * from "./safety";
export * from "./oauth";
export * from "./federation";
export * from "./live";
export * from "./moves";
export * from "./imports";
