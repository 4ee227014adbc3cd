/**
 * Sandbox tiers, from the most to the least confined:
 * - `standard`: read-only repository, private tmp, no network, no IPC;
 * - `native-ipc`: standard + POSIX shared memory / message queues;
 * - `elevated`: standard + network to an allowlist of hosts through the host's proxy;
 * - `unsandboxed`: everything; only after `travsr lang allow-unsandboxed <lang>`.
 */
export type SandboxTier = 'standard' | 'native-ipc' | 'elevated' | 'unsandboxed';

/** Every tier, in the order above. */
export const SANDBOX_TIERS: readonly SandboxTier[] = ['standard', 'native-ipc', 'elevated', 'unsandboxed'];

/** What a tier grants beyond reading the repository. */
export interface TierPowers {
  network: 'none' | 'allowlist' | 'unrestricted';
  ipc: 'none' | 'posix-shm';
}

const POWERS: Record<SandboxTier, TierPowers> = {
  standard: { network: 'none', ipc: 'none' },
  'native-ipc': { network: 'none', ipc: 'posix-shm' },
  elevated: { network: 'allowlist', ipc: 'none' },
  unsandboxed: { network: 'unrestricted', ipc: 'posix-shm' },
};

/** What `tier` grants. */
export function tierPowers(tier: SandboxTier): TierPowers {
  return POWERS[tier];
}

/** Whether `value` names a tier. */
export function isSandboxTier(value: unknown): value is SandboxTier {
  return typeof value === 'string' && (SANDBOX_TIERS as readonly string[]).includes(value);
}
