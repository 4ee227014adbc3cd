import { realpath, stat } from 'node:fs/promises';
import { posix, win32 } from 'node:path';
import { parseAllowlist } from './allowlist.js';
import { assertConstraints, type TierGrant } from './constraints.js';
import { checkEntrypoint } from './entrypoint.js';
import { LaunchSpecError, SandboxUnavailableError } from './errors.js';
import { RESERVED_ENV, type LaunchCommand, type LaunchSpec } from './launch-spec.js';
import { assertLimits } from './limits.js';
import { prepareLinuxLaunch } from './linux-launch.js';
import { prepareMacosLaunch } from './macos-launch.js';
import { isSandboxTier } from './tier.js';
import { prepareWindowsLaunch } from './windows-plan.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function assertSpec(spec: LaunchSpec, platform: NodeJS.Platform): void {
  const path = platform === 'win32' ? win32 : posix;
  const isAbsolute = (p: string): boolean => path.isAbsolute(p);
  if (!isSandboxTier(spec.tier))
    throw new LaunchSpecError(`unknown sandbox tier ${JSON.stringify(spec.tier)}; use standard, native-ipc, elevated or unsandboxed`);
  if (!isAbsolute(spec.pluginDir)) throw new LaunchSpecError(`pluginDir must be absolute, got ${JSON.stringify(spec.pluginDir)}`);
  if (spec.repoRoot !== undefined && !isAbsolute(spec.repoRoot))
    throw new LaunchSpecError(`repoRoot must be absolute, got ${JSON.stringify(spec.repoRoot)}`);
  if (spec.nodePath !== undefined && !isAbsolute(spec.nodePath))
    throw new LaunchSpecError(`nodePath must be absolute, got ${JSON.stringify(spec.nodePath)}`);
  if (spec.cacheDir !== undefined && !isAbsolute(spec.cacheDir))
    throw new LaunchSpecError(`cacheDir must be absolute, got ${JSON.stringify(spec.cacheDir)}`);
  assertLimits(spec.limits);
  for (const [k, v] of Object.entries(spec.env)) {
    if (!ENV_NAME.test(k) || typeof v !== 'string' || v.includes('\0'))
      throw new LaunchSpecError(`env ${JSON.stringify(k)} is not a valid variable name with a string value`);
    if ((RESERVED_ENV as readonly string[]).includes(k))
      throw new LaunchSpecError(`env ${k} is set by the sandbox itself; remove it from LaunchSpec.env`);
  }
  if (spec.networkAllow) parseAllowlist(spec.networkAllow);
}

async function assertDirectory(path: string, what: string): Promise<void> {
  try {
    if ((await stat(path)).isDirectory()) return;
  } catch {
    // reported below
  }
  throw new LaunchSpecError(`${what} ${path} is not a directory; check the path`);
}

/**
 * Turns a launch request into a command that runs the plugin inside its sandbox tier.
 *
 * Before anything runs, the manifest's constraints are evaluated against the tier (a
 * plugin asking for more than granted, or `unsandboxed` without `allowUnsandboxed`, throws
 * a {@link ConstraintError}). On Linux the sandbox is probed (cached) and a missing or
 * blocked bwrap throws a {@link SandboxUnavailableError}; Travsr never falls back to an
 * unsandboxed run. For `platform: 'darwin' | 'win32'` from another OS only the command is
 * built (for tests). Call `cleanup()` when the process has exited.
 *
 * @example
 * ```ts
 * const cmd = await prepareLaunch({ pluginDir, manifest, repoRoot, tier: 'standard', limits: defaultLimits(), env: { TRAVSR_PLUGIN_COOKIE: cookie } });
 * const child = execa(cmd.file, cmd.args, { env: cmd.env, extendEnv: false });
 * await child.finally(() => cmd.cleanup());
 * ```
 */
export async function prepareLaunch(spec: LaunchSpec): Promise<LaunchCommand> {
  const platform = spec.platform ?? process.platform;
  assertSpec(spec, platform);
  const grant: TierGrant = { tier: spec.tier, allowUnsandboxed: spec.allowUnsandboxed ?? false };
  if (spec.networkAllow) grant.networkAllow = spec.networkAllow;
  assertConstraints(spec.manifest, grant);

  if (platform === process.platform) {
    await assertDirectory(spec.pluginDir, 'the plugin directory');
    if (spec.repoRoot !== undefined) await assertDirectory(spec.repoRoot, 'the repository');
    if (spec.cacheDir !== undefined) await assertDirectory(spec.cacheDir, 'the plugin cache directory');
    await checkEntrypoint(spec.manifest, await realpath(spec.pluginDir));
  }
  const env = { ...spec.env };
  if (platform === 'linux') return prepareLinuxLaunch(spec, env);
  if (platform === 'darwin') return prepareMacosLaunch(spec, env);
  if (platform === 'win32') return prepareWindowsLaunch(spec, env);
  throw new SandboxUnavailableError(`Travsr has no sandbox for ${platform}`, 'run Travsr on Linux, macOS or Windows');
}
