/**
 * The CLI's entry into oclif. `bin/run.js` imports the bundled form of this module
 * (dist/bundle/execute.js), which the build makes together with the commands: oclif then lives
 * in a chunk the commands share, read as one file instead of some 160 CommonJS modules (about
 * 120 ms of every command's start-up).
 */
export { execute } from '@oclif/core';
