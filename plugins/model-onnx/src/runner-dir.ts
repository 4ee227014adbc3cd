import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNNER_DIR } from '@travsr/sdk/model';

/**
 * The runner this package was built with: `dist/runner/` (runner.mjs and ONNX Runtime's
 * WebAssembly files), which `assembleModelPlugin` of `@travsr/sdk/model` copies into every
 * model plugin; undefined when the package is not built.
 */
export function builtRunnerDir(): string | undefined {
  const dir = join(dirname(fileURLToPath(import.meta.url)), RUNNER_DIR);
  return existsSync(join(dir, 'runner.mjs')) ? dir : undefined;
}
