import { componentLicence, licenceAllowed, sbomPackages, type CycloneDxBom } from '@travsr/registry';
import { describeConfigSource, type ConfigValue } from '../config/index.js';
import { LangError, LangErrorCode } from './errors.js';

/** The licence policy an install is checked against (`registry.allowedLicences`). */
export interface LicencePolicy {
  /** SPDX ids, `NOASSERTION` or `*`. */
  readonly allowed: readonly string[];
  /** True when a user or trusted repository set it: then a plugin without an SBOM is refused, not waved through with a warning. */
  readonly explicit: boolean;
  /** Where it was set, for messages (`user: ~/.travsr/config.toml:4`, `default`). */
  readonly origin: string;
}

/** The policy from a resolved `registry.allowedLicences`. */
export function licencePolicyOf(value: ConfigValue<string[]>): LicencePolicy {
  return {
    allowed: value.value,
    explicit: value.source !== 'default',
    origin: describeConfigSource(value),
  };
}

/** What {@link checkLicences} concluded. */
export interface LicenceVerdict {
  /** Set when the plugin has no SBOM and the policy is the default: its licences were not checked. */
  readonly warning?: string;
}

const HOW_TO =
  'nothing was installed — allow the licence with `travsr config set registry.allowedLicences <ids,…> --global` (`*` allows any), or choose another plugin';

/**
 * Checks a plugin against the licence policy before anything is installed: its own licence
 * (the SBOM's subject) and that of every package its SBOM lists must be allowed (an SPDX
 * expression such as `MIT OR GPL-3.0-only` passes when it holds with the allowed ids).
 *
 * @throws LangError `LICENCE_NOT_ALLOWED` naming the package and its licence, or the plugin when
 *   it has no SBOM and the policy was set explicitly (its contents cannot be checked).
 * @example
 * ```ts
 * checkLicences('lang-go@0.1.0', bom, { allowed: ['MIT', 'Apache-2.0'], explicit: true, origin: 'user' });
 * ```
 */
export function checkLicences(plugin: string, bom: CycloneDxBom | undefined, policy: LicencePolicy): LicenceVerdict {
  if (policy.allowed.includes('*')) return {};
  const allowed = `registry.allowedLicences (${policy.origin}) allows ${policy.allowed.join(', ') || 'nothing'}`;
  if (!bom) {
    if (!policy.explicit) return { warning: `${plugin} has no SBOM, so the licences of what it bundles were not checked` };
    throw new LangError(
      LangErrorCode.LicenceNotAllowed,
      `${plugin} has no SBOM, so the licences of what it bundles cannot be checked, and ${allowed}; ${HOW_TO} (add NOASSERTION to accept plugins without an SBOM, or ask the plugin's maintainer to pack it again with travsr plugin pack)`,
    );
  }
  const subject = bom.metadata?.component;
  const subjectLicence = subject ? componentLicence(subject) : undefined;
  const checked = [{ name: subject?.name ?? plugin, version: subject?.version ?? '', licence: subjectLicence }, ...sbomPackages(bom)];
  for (const p of checked) {
    if (licenceAllowed(p.licence, policy.allowed)) continue;
    const what = p.licence === undefined ? 'declares no licence (NOASSERTION)' : `is licensed ${p.licence}`;
    const inside = p.name === subject?.name ? '' : ` (bundled in ${plugin})`;
    throw new LangError(LangErrorCode.LicenceNotAllowed, `${p.name}@${p.version}${inside} ${what}, and ${allowed}; ${HOW_TO}`);
  }
  return {};
}
