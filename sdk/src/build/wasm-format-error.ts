import { TravsrError } from '@travsr/protocol';

/**
 * A build step was given bytes that are not the WebAssembly module it can read: not wasm at
 * all, truncated, or with a section it does not understand. Code `WASM_MALFORMED`.
 *
 * @example
 * ```ts
 * try { wasmSections(bytes); } catch (e) {
 *   if ((e as { code?: string }).code === 'WASM_MALFORMED') console.error(`${path}: ${(e as Error).message}`);
 * }
 * ```
 */
export class WasmFormatError extends TravsrError {
  readonly code = 'WASM_MALFORMED';
  constructor(message: string) {
    super(message);
    this.name = 'WasmFormatError';
  }
}
