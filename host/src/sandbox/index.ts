/**
 * host/src/sandbox — turns a plugin's tier and manifest into a command that runs it under
 * an OS sandbox (bwrap on Linux, sandbox-exec on macOS, an AppContainer on Windows), with
 * resource limits in every tier. Policies are data under sandbox-profiles/.
 */
export type { SandboxTier, TierPowers } from './tier.js';
export { SANDBOX_TIERS, tierPowers, isSandboxTier } from './tier.js';
export type { ResourceLimits } from './limits.js';
export { defaultLimits, maxLimits, resolveLimits, LIMIT_NAMES } from './limits.js';
export type { TierGrant } from './constraints.js';
export { evaluateConstraints, assertConstraints, registrationTier, requiredTier } from './constraints.js';
export type { ConstraintCheck } from './errors.js';
export { ConstraintError, SandboxUnavailableError, LaunchSpecError, SandboxProfileError, SandboxErrorCode } from './errors.js';
export type { LaunchSpec, LaunchCommand } from './launch-spec.js';
export { prepareLaunch } from './launch.js';
export type { PluginTools, ResolvedTool } from './plugin-tools.js';
export { declaresTools, resolvePluginTools, toolBind, whichOnPath } from './plugin-tools.js';
export type { SandboxProbe, ProbeOptions } from './sandbox-probe.js';
export { probeSandbox, warmSandboxProbe } from './sandbox-probe.js';
export type { AllowlistProxyOptions, ProxyDecision, ProxyStats } from './allowlist-proxy.js';
export { AllowlistProxy } from './allowlist-proxy.js';
export type { AllowEntry } from './allowlist.js';
export { parseAllowEntry, matchAllowlist, DEFAULT_ALLOW_PORTS } from './allowlist.js';
export type { WindowsLaunchPlan } from './windows-plan.js';
