import type { PluginManifest } from '@travsr/protocol';
import { entryCovers, parseAllowEntry, type AllowEntry } from './allowlist.js';
import { ConstraintError, type ConstraintCheck } from './errors.js';
import { maxLimits } from './limits.js';
import { tierPowers, type SandboxTier } from './tier.js';

/** What the user granted a plugin (from `~/.travsr/lang.toml`, or a `--tier` flag). */
export interface TierGrant {
  tier: SandboxTier;
  /** True only after `travsr lang allow-unsandboxed <lang>`. */
  allowUnsandboxed: boolean;
  /**
   * Elevated tier: the hosts the user accepted. When absent, the manifest's own allowlist
   * is taken as accepted (the user granted the tier having seen it).
   */
  networkAllow?: string[];
}

/**
 * The least-privileged tier that satisfies the manifest: a network allowlist needs
 * `elevated`, `ipc: posix-shm` needs `native-ipc`, anything else runs in `standard`.
 * (A plugin asking for both network and posix-shm gets `elevated`, which does not grant
 * shared memory; evaluateConstraints then refuses its `ipc` constraint.)
 */
export function requiredTier(manifest: PluginManifest): SandboxTier {
  const c = manifest.constraints;
  if (c.network !== false) return 'elevated';
  if (c.ipc === 'posix-shm') return 'native-ipc';
  return 'standard';
}

/**
 * The tier to register a plugin at: `kept` (its registration's, or the user's `sandbox.tier` for a
 * new one) when that gives what the manifest needs, else the tier the manifest needs — a language
 * plugin whose tool needs shared memory (scip-clang) or a build fetching dependencies (scip-java)
 * is granted its tier when the user installs it by name; the allowlist stays the manifest's.
 */
export function registrationTier(kept: SandboxTier, manifest: PluginManifest): SandboxTier {
  const needed = requiredTier(manifest);
  return tierCovers(kept, needed) ? kept : needed;
}

function tierCovers(granted: SandboxTier, needed: SandboxTier): boolean {
  return granted === needed || needed === 'standard' || granted === 'unsandboxed';
}

function describeList(list: readonly string[]): string {
  return list.length === 0 ? 'no hosts' : list.join(', ');
}

function parseOrUndefined(raw: string): AllowEntry | undefined {
  try {
    return parseAllowEntry(raw);
  } catch {
    return undefined;
  }
}

function networkCheck(manifest: PluginManifest, grant: TierGrant): ConstraintCheck {
  const net = manifest.constraints.network;
  const requested = net === false ? 'none' : `hosts ${describeList(net.allow)}`;
  const powers = tierPowers(grant.tier);
  if (net === false) {
    const granted =
      powers.network === 'none'
        ? 'none'
        : powers.network === 'unrestricted'
          ? 'unrestricted'
          : `hosts ${describeList(grant.networkAllow ?? [])}`;
    return { constraint: 'network', requested, granted, ok: true };
  }
  if (powers.network === 'unrestricted') return { constraint: 'network', requested, granted: 'unrestricted', ok: true };
  if (powers.network === 'none') {
    return {
      constraint: 'network',
      requested,
      granted: 'none',
      ok: false,
      reason: `the ${grant.tier} tier has no network; grant the elevated tier to reach these hosts through the allowlist proxy`,
    };
  }
  const grantedRaw = grant.networkAllow ?? net.allow;
  const granted = `hosts ${describeList(grantedRaw)}`;
  const grantedEntries = grantedRaw.map(parseOrUndefined).filter((e): e is AllowEntry => e !== undefined);
  const uncovered = net.allow.filter((raw) => {
    const req = parseOrUndefined(raw);
    return !req || !grantedEntries.some((g) => entryCovers(g, req));
  });
  if (uncovered.length > 0) {
    return {
      constraint: 'network',
      requested,
      granted,
      ok: false,
      reason: `not granted: ${uncovered.join(', ')} (a bare host means ports 80 and 443 only); add them to the grant or remove them from the manifest`,
    };
  }
  return { constraint: 'network', requested, granted, ok: true };
}

/**
 * Compares a manifest's declared constraints with the grant, before any plugin code runs.
 * Returns one check per constraint (tier, network, ipc, hostApi, filesystem, tools and cache
 * when declared, each declared resource); a plugin may start only if every check is ok.
 */
export function evaluateConstraints(manifest: PluginManifest, grant: TierGrant): ConstraintCheck[] {
  const c = manifest.constraints;
  const checks: ConstraintCheck[] = [];
  const needed = requiredTier(manifest);

  if (grant.tier === 'unsandboxed' && !grant.allowUnsandboxed) {
    const lang = manifest.languages[0] ?? manifest.id;
    checks.push({
      constraint: 'tier',
      requested: 'unsandboxed',
      granted: 'sandboxed tiers only',
      ok: false,
      reason: `running a plugin without a sandbox needs the user's consent: travsr lang allow-unsandboxed ${lang}`,
    });
  } else {
    const ok = tierCovers(grant.tier, needed);
    checks.push({
      constraint: 'tier',
      requested: needed,
      granted: grant.tier,
      ok,
      ...(ok ? {} : { reason: `the manifest needs the ${needed} tier; grant it, or use a plugin that needs less` }),
    });
  }

  checks.push(networkCheck(manifest, grant));

  const shm = tierPowers(grant.tier).ipc === 'posix-shm';
  const ipcOk = c.ipc === 'none' || shm;
  checks.push({
    constraint: 'ipc',
    requested: c.ipc,
    granted: shm ? 'posix-shm' : 'none',
    ok: ipcOk,
    ...(ipcOk
      ? {}
      : {
          reason:
            c.network !== false
              ? 'no sandboxed tier grants both network and posix-shm; drop one of them from the manifest, or allow the plugin unsandboxed'
              : `the ${grant.tier} tier has no shared memory; grant the native-ipc tier`,
        }),
  });

  checks.push({
    constraint: 'hostApi',
    requested: String(c.hostApi),
    granted: 'false',
    ok: !c.hostApi,
    ...(c.hostApi ? { reason: 'this host offers no host API to plugins; set constraints.hostApi to false' } : {}),
  });

  checks.push({ constraint: 'filesystem', requested: c.filesystem ?? 'repo-read-only', granted: 'repo-read-only', ok: true });

  if (c.tools && c.tools.length > 0) {
    checks.push({
      constraint: 'tools',
      requested: c.tools.join(', '),
      granted: "those found on the host's PATH, bound read-only at the same path",
      ok: true,
    });
  }

  if (c.cache) {
    checks.push({
      constraint: 'cache',
      requested: 'a private directory kept between sessions',
      granted: 'its own directory for this plugin version and repository, writable, emptied past plugins.cacheMax',
      ok: true,
    });
  }

  if (c.resources) {
    const max = maxLimits();
    for (const name of ['memoryMiB', 'cpuSeconds', 'processes'] as const) {
      const want = c.resources[name];
      if (want === undefined) continue;
      const ok = want <= max[name];
      checks.push({
        constraint: `resources.${name}`,
        requested: String(want),
        granted: `up to ${max[name]}`,
        ok,
        ...(ok ? {} : { reason: `above the host's maximum in sandbox-profiles/limits.json; lower constraints.resources.${name}` }),
      });
    }
  }
  return checks;
}

/**
 * What the elevated tier's proxy lets through: exactly the hosts the manifest declares
 * (evaluateConstraints has checked that the grant covers them), never a broader grant.
 */
export function proxyAllowlist(manifest: PluginManifest): string[] {
  const net = manifest.constraints.network;
  return net === false ? [] : [...net.allow];
}

/** Throws a {@link ConstraintError} naming every refused constraint; returns the checks otherwise. */
export function assertConstraints(manifest: PluginManifest, grant: TierGrant): ConstraintCheck[] {
  const checks = evaluateConstraints(manifest, grant);
  if (checks.some((c) => !c.ok)) throw new ConstraintError(checks, `${manifest.id}@${manifest.version}`);
  return checks;
}
