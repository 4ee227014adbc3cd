/**
 * Protocol constants shared by the host and every plugin.
 *
 * @example
 * ```ts
 * import { PROTOCOL_VERSIONS, DEFAULT_MAX_FRAME_BYTES } from '@travsr/protocol';
 * PROTOCOL_VERSIONS.includes('1'); // true
 * DEFAULT_MAX_FRAME_BYTES === 16 * 1024 * 1024; // true
 * ```
 */

/** Protocol versions this build speaks, newest first. */
export const PROTOCOL_VERSIONS = ['1'] as const;
/** A protocol version string as negotiated in `hello`. */
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** Largest frame either side accepts unless `hello` negotiates otherwise: 16 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** Smallest maximum frame size a peer may negotiate: 64 KiB. */
export const MIN_MAX_FRAME_BYTES = 64 * 1024;
/** Bytes of the big-endian length prefix in front of every frame. */
export const FRAME_HEADER_BYTES = 4;
/** Deepest nesting of arrays and maps a frame may hold; deeper is `FRAME_UNDECODABLE`. */
export const MAX_NESTING_DEPTH = 256;

/** Environment variable the host sets to prove the plugin was started by a host. */
export const PLUGIN_COOKIE_ENV = 'TRAVSR_PLUGIN_COOKIE';
/**
 * Fixed value of {@link PLUGIN_COOKIE_ENV}. Like go-plugin's magic cookie it is not a
 * secret: it only tells a plugin started by hand that it should explain itself and exit.
 */
export const PLUGIN_COOKIE_VALUE = 'd3b1f0c2-travsr-plugin-v1';
/** Environment variable listing the protocol versions the host speaks, comma separated. */
export const PROTOCOL_VERSIONS_ENV = 'TRAVSR_PROTOCOL_VERSIONS';

/** Name of the manifest file at the root of every plugin directory. */
export const MANIFEST_FILE = 'travsr-plugin.json';
