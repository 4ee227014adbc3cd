import { describe, expect, it } from 'vitest';
import { compareVersions, isVersion, maxSatisfying, parseRange, parseVersion, satisfies, sortVersions } from '../src/semver.js';

describe('parseVersion', () => {
  it('reads core, prerelease and build', () => {
    expect(parseVersion('1.2.3-beta.11+sha.abc')).toEqual({
      major: 1,
      minor: 2,
      patch: 3,
      prerelease: ['beta', 11],
      build: ['sha', 'abc'],
    });
    expect(parseVersion('0.0.0')).toMatchObject({ major: 0, minor: 0, patch: 0, prerelease: [] });
  });

  it('refuses what is not a semantic version, saying what a version looks like', () => {
    for (const bad of [
      '1.2',
      'v1.2.3',
      '01.2.3',
      '1.2.3-',
      '1.2.3-01',
      '1.2.3+',
      '1..3',
      '../1.2.3',
      '1.2.3/x',
      '99999999999999999.0.0',
      '',
    ]) {
      expect(isVersion(bad), bad).toBe(false);
    }
    expect(() => parseVersion('1.2')).toThrow(
      expect.objectContaining({ code: 'VERSION_INVALID', message: expect.stringMatching(/MAJOR\.MINOR\.PATCH/) }),
    );
  });
});

describe('compareVersions', () => {
  it('orders by semver precedence', () => {
    expect(
      sortVersions([
        '1.10.0',
        '1.2.0',
        '1.0.0',
        '1.0.0-rc.1',
        '1.0.0-alpha',
        '1.0.0-alpha.1',
        '1.0.0-alpha.beta',
        '1.0.0-beta.2',
        '1.0.0-beta.11',
      ]),
    ).toEqual([
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.2.0',
      '1.10.0',
    ]);
    expect(compareVersions('1.2.3+a', '1.2.3+b')).toBe(0);
    expect(compareVersions('2.0.0', '10.0.0')).toBe(-1);
  });
});

describe('ranges', () => {
  const cases: [range: string, yes: string[], no: string[]][] = [
    ['*', ['0.0.1', '1.0.0', '99.1.2'], ['1.0.0-rc.1']],
    ['', ['1.0.0'], []],
    ['1.2.3', ['1.2.3', '1.2.3+build'], ['1.2.4', '1.2.2']],
    ['=1.2.3', ['1.2.3'], ['1.2.4']],
    ['1.x', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.9']],
    ['1.2', ['1.2.0', '1.2.9'], ['1.3.0']],
    ['^1.2', ['1.2.0', '1.9.0'], ['1.1.9', '2.0.0', '2.0.0-rc.1', '1.3.0-beta.1']],
    ['^1.2.3', ['1.2.3', '1.99.0'], ['1.2.2', '2.0.0']],
    ['^0.2.3', ['0.2.3', '0.2.9'], ['0.3.0', '0.2.2']],
    ['^0.0.3', ['0.0.3'], ['0.0.4']],
    ['^0', ['0.0.0', '0.9.0'], ['1.0.0']],
    ['~1.2.3', ['1.2.3', '1.2.9'], ['1.3.0', '1.2.2']],
    ['~1.2', ['1.2.0', '1.2.9'], ['1.3.0']],
    ['~1', ['1.0.0', '1.9.9'], ['2.0.0']],
    ['>=1.0 <2', ['1.0.0', '1.5.0', '1.99.99'], ['0.9.9', '2.0.0', '2.0.0-alpha']],
    ['>= 1.0.0 < 2.0.0', ['1.0.0'], ['2.0.0']],
    ['>1.2', ['1.3.0'], ['1.2.9']],
    ['>1.2.3', ['1.2.4'], ['1.2.3']],
    ['<=1.2', ['1.2.9', '0.1.0'], ['1.3.0']],
    ['<1.2.3', ['1.2.2'], ['1.2.3', '1.2.3-rc.1']],
    ['^1.2 || ^3', ['1.5.0', '3.1.0'], ['2.0.0']],
    ['>=1.3.0-rc.1 <2', ['1.3.0-rc.2', '1.3.0', '1.4.0'], ['1.3.0-rc.0', '1.4.0-rc.1']],
    ['~1.2.3-beta.2', ['1.2.3-beta.2', '1.2.3-beta.10', '1.2.3', '1.2.9'], ['1.2.3-beta.1', '1.2.4-beta.1']],
  ];
  for (const [range, yes, no] of cases) {
    it(`"${range}"`, () => {
      const r = parseRange(range);
      for (const v of yes) expect(satisfies(v, r), `${v} in ${range}`).toBe(true);
      for (const v of no) expect(satisfies(v, r), `${v} not in ${range}`).toBe(false);
    });
  }

  it('picks the highest satisfying version, never a prerelease unless asked for', () => {
    const published = ['0.9.0', '1.2.0', '1.9.1', '2.0.0-rc.1', '2.0.0', '2.1.0-beta.1'];
    expect(maxSatisfying(published, '^1.2')).toBe('1.9.1');
    expect(maxSatisfying(published, '*')).toBe('2.0.0');
    expect(maxSatisfying(published, '>=2.1.0-beta.0')).toBe('2.1.0-beta.1');
    expect(maxSatisfying(published, '^3')).toBeUndefined();
  });

  it('refuses ranges it does not understand, naming the forms it does', () => {
    for (const bad of ['1.0 - 2.0', '>=x.y', '^1.2.3.4', '1.2.x-beta', '!1.0.0', 'latest']) {
      expect(() => parseRange(bad), bad).toThrow(
        expect.objectContaining({ code: 'RANGE_INVALID', message: expect.stringMatching(/\^1\.2, ~1\.2\.3/) }),
      );
    }
  });
});
