// The licence policy an install is checked against: the plugin's own licence and every package its SBOM lists.
import { DEFAULT_ALLOWED_LICENCES, type CycloneDxBom } from '@travsr/registry';
import { describe, expect, it } from 'vitest';
import { checkLicences, licencePolicyOf, type LicencePolicy } from '../../src/catalog/licence-check.js';
import { langErrorOf } from './lang-error.js';

function bom(subject: string | undefined, packages: [string, string, string | undefined][]): CycloneDxBom {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:00000000-0000-5000-8000-000000000000',
    version: 1,
    metadata: {
      tools: { components: [] },
      component: { type: 'application', name: 'lang-x', version: '1.0.0', ...(subject ? { licenses: [{ expression: subject }] } : {}) },
    },
    components: packages.map(([name, version, licence]) => ({
      type: 'library',
      name,
      version,
      ...(licence ? { licenses: [{ license: { id: licence } }] } : {}),
    })),
    dependencies: [],
    compositions: [{ aggregate: 'complete', assemblies: [] }],
  };
}

const DEFAULT: LicencePolicy = licencePolicyOf({ value: [...DEFAULT_ALLOWED_LICENCES], source: 'default' });
const STRICT: LicencePolicy = licencePolicyOf({ value: ['MIT'], source: 'user', origin: '/home/u/.travsr/config.toml:3' });

describe('checkLicences', () => {
  it('allows a plugin whose licence and bundled packages are all in the policy', () => {
    expect(
      checkLicences(
        'lang-x@1.0.0',
        bom('Apache-2.0', [
          ['ajv', '8.20.0', 'MIT'],
          ['tree-sitter-wasms', '0.1.13', 'Unlicense'],
        ]),
        DEFAULT,
      ),
    ).toEqual({});
  });

  it('refuses a bundled package outside the policy, naming it, its licence and where the policy was set', () => {
    const e = langErrorOf(() =>
      checkLicences(
        'lang-x@1.0.0',
        bom('MIT', [
          ['ajv', '8.20.0', 'MIT'],
          ['readline-gpl', '2.0.0', 'GPL-3.0-only'],
        ]),
        STRICT,
      ),
    );
    expect(e.code).toBe('LICENCE_NOT_ALLOWED');
    expect(e.message).toBe(
      'readline-gpl@2.0.0 (bundled in lang-x@1.0.0) is licensed GPL-3.0-only, and registry.allowedLicences (user: /home/u/.travsr/config.toml:3) allows MIT; nothing was installed — allow the licence with `travsr config set registry.allowedLicences <ids,…> --global` (`*` allows any), or choose another plugin',
    );
  });

  it("refuses the plugin's own licence, and a package that declares none unless NOASSERTION is allowed", () => {
    expect(langErrorOf(() => checkLicences('lang-x@1.0.0', bom('Apache-2.0', []), STRICT)).message).toMatch(
      /^lang-x@1\.0\.0 is licensed Apache-2\.0, and/,
    );
    const unlicensed = bom('MIT', [['mystery', '0.0.1', undefined]]);
    expect(langErrorOf(() => checkLicences('lang-x@1.0.0', unlicensed, STRICT)).message).toMatch(
      /^mystery@0\.0\.1 \(bundled in lang-x@1\.0\.0\) declares no licence \(NOASSERTION\)/,
    );
    expect(checkLicences('lang-x@1.0.0', unlicensed, { ...STRICT, allowed: ['MIT', 'NOASSERTION'] })).toEqual({});
  });

  it('judges SPDX expressions: one side of OR, both sides of AND', () => {
    expect(checkLicences('lang-x@1.0.0', bom('(MIT OR GPL-3.0-only)', []), STRICT)).toEqual({});
    expect(() => checkLicences('lang-x@1.0.0', bom('MIT AND GPL-3.0-only', []), STRICT)).toThrow(/is licensed MIT AND GPL-3\.0-only/);
  });

  it('without an SBOM: a warning under the default policy, a refusal under one set explicitly; * allows anything', () => {
    expect(checkLicences('lang-x@1.0.0', undefined, DEFAULT)).toEqual({
      warning: 'lang-x@1.0.0 has no SBOM, so the licences of what it bundles were not checked',
    });
    expect(langErrorOf(() => checkLicences('lang-x@1.0.0', undefined, STRICT)).message).toMatch(
      /^lang-x@1\.0\.0 has no SBOM, so the licences of what it bundles cannot be checked/,
    );
    expect(checkLicences('lang-x@1.0.0', undefined, { ...STRICT, allowed: ['*'] })).toEqual({});
    expect(checkLicences('lang-x@1.0.0', bom('GPL-3.0-only', []), { ...STRICT, allowed: ['*'] })).toEqual({});
  });
});
