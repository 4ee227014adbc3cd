import { TravsrError } from '@travsr/protocol';

// The one helper, from the protocol; re-exported for the modules that compare it with PluginErrorCode.
export { errorCode } from '@travsr/protocol';

/** Codes of errors about a plugin, its process or its session. */
export const PluginErrorCode = {
  NotFound: 'PLUGIN_NOT_FOUND',
  ManifestInvalid: 'PLUGIN_MANIFEST_INVALID',
  Tampered: 'PLUGIN_TAMPERED',
  LaunchFailed: 'PLUGIN_LAUNCH_FAILED',
  HandshakeFailed: 'PLUGIN_HANDSHAKE_FAILED',
  ProtocolViolation: 'PLUGIN_PROTOCOL_VIOLATION',
  Timeout: 'PLUGIN_TIMEOUT',
  Crashed: 'PLUGIN_CRASHED',
  OutputLimit: 'PLUGIN_OUTPUT_LIMIT',
  Disabled: 'PLUGIN_DISABLED',
  Stopped: 'PLUGIN_STOPPED',
  RequestFailed: 'PLUGIN_REQUEST_FAILED',
  Cancelled: 'PLUGIN_REQUEST_CANCELLED',
  /** The manifest asks for more than the plugin was granted (from the sandbox layer). */
  ConstraintRefused: 'CONSTRAINT_REFUSED',
  /** No usable sandbox on this machine (from the sandbox layer). */
  SandboxUnavailable: 'SANDBOX_UNAVAILABLE',
} as const;
export type PluginErrorCode = (typeof PluginErrorCode)[keyof typeof PluginErrorCode];

/**
 * An error about a plugin. The message says what happened, why, and what to do; `plugin`
 * names it as `id@version`; `stderrTail` holds its last stderr lines when they help.
 */
export class PluginError extends TravsrError {
  override readonly name = 'PluginError';
  constructor(
    readonly code: PluginErrorCode,
    message: string,
    readonly plugin?: string,
    readonly stderrTail?: string[],
  ) {
    super(message);
  }
}
