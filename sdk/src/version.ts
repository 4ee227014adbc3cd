/**
 * Name of this SDK as reported in the `hello` result.
 *
 * @example
 * ```ts
 * import { SDK_NAME, SDK_VERSION } from '@travsr/sdk';
 * console.error(`${SDK_NAME}@${SDK_VERSION}`); // "@travsr/sdk@0.1.0"
 * ```
 */
export const SDK_NAME = '@travsr/sdk';

/**
 * Version of this SDK as reported in the `hello` result (kept equal to sdk/package.json by a test).
 *
 * @example
 * ```ts
 * if (SDK_VERSION.startsWith('0.')) log('info', 'pre-1.0 SDK');
 * ```
 */
export const SDK_VERSION = '0.1.0';
