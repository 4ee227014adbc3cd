// A valid manifest for unit tests, with constraint overrides. Not a test file itself.
import type { PluginManifest } from '@travsr/protocol';

export function manifest(
  constraints: Partial<PluginManifest['constraints']> = {},
  entrypoint: PluginManifest['entrypoint'] = { runtime: 'node', path: 'probe.mjs' },
): PluginManifest {
  return {
    id: 'lang-probe',
    version: '1.0.0',
    languages: ['probe'],
    extensions: ['.probe'],
    entrypoint,
    protocolVersions: ['1'],
    constraints: { network: false, ipc: 'none', hostApi: false, ...constraints },
  };
}
