/** `@travsr/sdk/build` — how to bundle a plugin so it runs in the sandbox with Node.js alone. */
export { pluginBundleOptions, type PluginBundleOptions } from './bundle-options.js';
export { buildPlugin, type EsbuildBuild, type PluginBuild, type PluginBundle } from './build-plugin.js';
