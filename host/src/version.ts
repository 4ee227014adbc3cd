import { readFileSync } from 'node:fs';
import { hostPackagePath } from './paths/host-package.js';

/** Version of the travsr host package. */
export const HOST_VERSION: string = (JSON.parse(readFileSync(hostPackagePath('package.json'), 'utf8')) as { version: string }).version;
