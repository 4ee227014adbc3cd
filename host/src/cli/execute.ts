/**
 * The CLI's entry into oclif. `bin/run.js` imports the bundled form of this module
 * (dist/bundle/execute.js), which the build makes together with the commands: oclif then lives
 * in a chunk the commands share, read as one file instead of some 160 CommonJS modules (about
 * 120 ms of every command's start-up).
 *
 * `Exit` is oclif's own seam for the `process.exit` that ends a command (the end-to-end tests
 * run commands in their own process through it, see test/helpers/run-cli.ts); it is the bundle's
 * copy, the one its `execute` calls.
 */
export { execute } from '@oclif/core';
export { Exit } from '@oclif/core/handle';
