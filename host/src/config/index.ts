/** Layered, typed configuration: flag > environment variable > repo file > user file > default. */
export * from './errors.js';
export * from './schema.js';
export * from './resolve.js';
export * from './load.js';
export * from './edit.js';
export * from './repo-trust.js';
export { keyPathId, lineOfKey, tomlKeyLines } from './toml-lines.js';
export * from './trust-review.js';
