// The library's public surface: re-exports only.
export * from './shapes';
export { format as fmt, formatters } from './format';
export * as formatting from './format';
export { default as shout } from './format';
