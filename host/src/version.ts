import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Version of the travsr host package. */
export const HOST_VERSION: string = (require('../package.json') as { version: string }).version;
