import { prepareLaunch, resolveLimits, type ResourceLimits, type SandboxTier } from '../sandbox/index.js';
import type { LoadedPlugin } from './plugin-dir.js';
import { spawnPlugin, type PluginProcess } from './plugin-process.js';

/** What the conformance kit's launcher receives and returns (see `@travsr/sdk/testing`). */
export interface KitLaunchOptions {
  env: Record<string, string>;
  repoRoot: string;
}

/**
 * A launcher for the SDK conformance kit that starts the plugin the way the host does:
 * inside the given sandbox tier, with the sandbox's limits. Each launch cleans up its
 * sandbox (proxy, cgroup) when the process exits.
 */
export function sandboxedLauncher(
  plugin: LoadedPlugin,
  tier: SandboxTier,
  options: {
    limits?: ResourceLimits;
    networkAllow?: string[];
    allowUnsandboxed?: boolean;
    onLaunch?: (description: string[]) => void;
  } = {},
): (opts: KitLaunchOptions) => Promise<{ process: PluginProcess; repoRootInside: string }> {
  return async ({ env, repoRoot }) => {
    const cmd = await prepareLaunch({
      pluginDir: plugin.dir,
      manifest: plugin.manifest,
      repoRoot,
      tier,
      limits: options.limits ?? resolveLimits(plugin.manifest),
      env,
      ...(options.networkAllow ? { networkAllow: options.networkAllow } : {}),
      allowUnsandboxed: options.allowUnsandboxed ?? false,
    });
    options.onLaunch?.(cmd.description);
    const proc = spawnPlugin(cmd);
    const exited = proc.exited.finally(() => cmd.cleanup().catch(() => undefined));
    return { process: { ...proc, exited }, repoRootInside: cmd.repoRootInside ?? repoRoot };
  };
}
