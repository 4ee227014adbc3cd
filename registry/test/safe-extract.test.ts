import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { safeExtract } from '../src/safe-extract.js';
import { header, paxPath, rawTar, tempDir, TYPE, writeTgz, writeZeroBomb } from './tar-fixtures.js';

const MiB = 1024 * 1024;

/** A scratch area: `work/` holds the archive and the target, `outside/` must stay empty. */
function arena(): { work: string; outside: string; target: string } {
  const root = tempDir();
  const work = join(root, 'a', 'b', 'work');
  const outside = join(root, 'outside');
  mkdirSync(work, { recursive: true });
  mkdirSync(outside);
  return { work, outside, target: join(work, 'target') };
}

async function refused(file: string, target: string, code: string, message: RegExp, limits = {}): Promise<Record<string, unknown>> {
  const err = await safeExtract(file, target, limits).then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string; details: Record<string, unknown> },
  );
  expect(err, 'extraction should have been refused').toBeDefined();
  expect(err).toMatchObject({ code, message: expect.stringMatching(message) });
  expect(err?.message).toMatch(/nothing was installed/);
  expect(existsSync(target), 'a refused extraction leaves no target behind').toBe(false);
  return err?.details ?? {};
}

describe('safeExtract', () => {
  it('extracts files, directories, modes and inner symlinks under package/', async () => {
    const { work, target } = arena();
    const file = writeTgz(work, 'ok.tgz', [
      { path: 'package/', type: TYPE.dir },
      { path: 'package/travsr-plugin.json', data: '{}' },
      { path: 'package/dist/main.js', data: 'console.log(1)\n', mode: 0o4755 },
      { path: 'package/dist/alias.js', type: TYPE.symlink, linkpath: 'main.js' },
      { path: 'package/dist/copy.js', type: TYPE.hardlink, linkpath: 'package/dist/main.js' },
      { path: 'package/empty/', type: TYPE.dir },
    ]);
    const result = await safeExtract(file, target, { maxBytes: MiB, maxEntries: 10 });
    expect(result).toEqual({ entries: 6, bytes: 2 + 15 + 15 });
    expect(readFileSync(join(target, 'dist', 'main.js'), 'utf8')).toBe('console.log(1)\n');
    expect(statSync(join(target, 'dist', 'main.js')).mode & 0o7777).toBe(0o755); // setuid dropped
    expect(statSync(join(target, 'travsr-plugin.json')).mode & 0o777).toBe(0o644);
    expect(readlinkSync(join(target, 'dist', 'alias.js'))).toBe('main.js');
    expect(lstatSync(join(target, 'dist', 'copy.js')).nlink).toBe(1); // a copy, not a hard link
    expect(readFileSync(join(target, 'dist', 'copy.js'), 'utf8')).toBe('console.log(1)\n');
    expect(statSync(join(target, 'empty')).isDirectory()).toBe(true);
  });

  it('refuses an entry with a ../ path before writing it', async () => {
    const { work, target } = arena();
    const file = writeTgz(work, 'dotdot.tgz', [
      { path: 'package/ok.txt', data: 'fine' },
      { path: 'package/../../evil', data: 'pwned' },
    ]);
    const details = await refused(file, target, 'ARCHIVE_PATH_ESCAPE', /"package\/\.\.\/\.\.\/evil" path has a "\.\." segment/);
    expect(details.entry).toBe('package/../../evil');
    expect(existsSync(join(work, 'evil'))).toBe(false);
    expect(existsSync(join(work, '..', 'evil'))).toBe(false);
  });

  it('refuses a ../ path smuggled in through a pax header', async () => {
    const { work, target } = arena();
    const file = writeTgz(work, 'pax.tgz', [paxPath('package/../../../evil'), { path: 'package/innocent', data: 'pwned' }]);
    await refused(file, target, 'ARCHIVE_PATH_ESCAPE', /"package\/\.\.\/\.\.\/\.\.\/evil" path has a "\.\." segment/);
    expect(existsSync(join(work, '..', '..', 'evil'))).toBe(false);
  });

  it('refuses absolute paths (into a directory we can check, and /etc/passwd)', async () => {
    const { work, outside, target } = arena();
    const victim = join(outside, 'victim');
    await refused(writeTgz(work, 'abs.tgz', [{ path: victim, data: 'pwned' }]), target, 'ARCHIVE_PATH_ESCAPE', /is an absolute path/);
    expect(existsSync(victim)).toBe(false);
    const passwd = readFileSync('/etc/passwd');
    await refused(
      writeTgz(work, 'passwd.tgz', [{ path: '/etc/passwd', data: 'root::0:0::/:/bin/sh\n' }]),
      target,
      'ARCHIVE_PATH_ESCAPE',
      /is an absolute path/,
    );
    expect(readFileSync('/etc/passwd').equals(passwd)).toBe(true);
  });

  it('refuses entries outside package/ and backslash paths', async () => {
    const { work, target } = arena();
    await refused(writeTgz(work, 'root.tgz', [{ path: 'other/x', data: 'x' }]), target, 'ARCHIVE_PATH_ESCAPE', /is outside package\//);
    await refused(
      writeTgz(work, 'bs.tgz', [{ path: 'package\\..\\..\\evil', data: 'x' }]),
      target,
      'ARCHIVE_PATH_ESCAPE',
      /contains a backslash/,
    );
  });

  it('refuses a symlink escaping the target, and the file written through it', async () => {
    const { work, outside, target } = arena();
    // target = <root>/a/b/work/target, so ../../../../outside is <root>/outside.
    const file = writeTgz(work, 'symlink.tgz', [
      { path: 'package/link', type: TYPE.symlink, linkpath: '../../../../outside' },
      { path: 'package/link/x', data: 'pwned' },
    ]);
    await refused(file, target, 'ARCHIVE_LINK_ESCAPE', /"package\/link" is a symlink to "\.\.\/\.\.\/\.\.\/\.\.\/outside", outside/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses an absolute symlink target', async () => {
    const { work, outside, target } = arena();
    const file = writeTgz(work, 'abslink.tgz', [{ path: 'package/link', type: TYPE.symlink, linkpath: outside }]);
    await refused(file, target, 'ARCHIVE_LINK_ESCAPE', /is a symlink to ".*outside", outside/);
  });

  it('refuses writing through a symlink even when it points inside', async () => {
    const { work, target } = arena();
    const file = writeTgz(work, 'through.tgz', [
      { path: 'package/sub/', type: TYPE.dir },
      { path: 'package/link', type: TYPE.symlink, linkpath: 'sub' },
      { path: 'package/link/x', data: 'x' },
    ]);
    await refused(file, target, 'ARCHIVE_LINK_ESCAPE', /would be written through the symlink "link"/);
  });

  it('refuses symlinks that escape only through other symlinks, whatever their order', async () => {
    const { work, target } = arena();
    // up -> ../.. is the root (inside); x -> up/.. is the root's parent: outside.
    const file = writeTgz(work, 'chain.tgz', [
      { path: 'package/a/b/x', type: TYPE.symlink, linkpath: 'up/..' },
      { path: 'package/a/b/up', type: TYPE.symlink, linkpath: '../..' },
    ]);
    await refused(
      file,
      target,
      'ARCHIVE_LINK_ESCAPE',
      /"package\/a\/b\/x" is a symlink to "up\/\.\.", which resolves outside the extraction directory through other links/,
    );
  });

  it('refuses hard links to /etc/passwd, through .., and to files not in the archive', async () => {
    const { work, target } = arena();
    await refused(
      writeTgz(work, 'hl-abs.tgz', [{ path: 'package/passwd', type: TYPE.hardlink, linkpath: '/etc/passwd' }]),
      target,
      'ARCHIVE_LINK_ESCAPE',
      /is a hard link to "\/etc\/passwd", outside the extraction directory/,
    );
    await refused(
      writeTgz(work, 'hl-dotdot.tgz', [{ path: 'package/x', type: TYPE.hardlink, linkpath: 'package/../../../outside/secret' }]),
      target,
      'ARCHIVE_LINK_ESCAPE',
      /is a hard link to .*outside the extraction directory/,
    );
    await refused(
      writeTgz(work, 'hl-missing.tgz', [{ path: 'package/x', type: TYPE.hardlink, linkpath: 'package/not-there' }]),
      target,
      'ARCHIVE_LINK_ESCAPE',
      /not a file earlier in the archive/,
    );
  });

  it('refuses character devices, block devices and FIFOs', async () => {
    const { work, target } = arena();
    for (const [type, what] of [
      [TYPE.char, 'character device'],
      [TYPE.block, 'block device'],
      [TYPE.fifo, 'FIFO'],
    ] as const) {
      const file = writeTgz(work, `dev-${type}.tgz`, [
        { path: 'package/ok', data: 'x' },
        { path: 'package/null', type },
      ]);
      await refused(file, target, 'ARCHIVE_SPECIAL_FILE', new RegExp(`"package/null" is a ${what}`));
    }
  });

  describe('decompression bombs (200 MiB of zeros, maxBytes 10 MiB)', () => {
    let declared: string;
    let trailing: string;
    let work: string;
    beforeAll(async () => {
      work = arena().work;
      declared = join(work, 'declared.tgz');
      trailing = join(work, 'trailing.tgz');
      // A file whose header says 200 MiB, and its 200 MiB of zeros.
      await writeZeroBomb(declared, header({ path: 'package/zeros', declaredSize: 200 * MiB }), 200 * MiB);
      // A small valid archive, then 200 MiB of zeros after its end blocks.
      await writeZeroBomb(trailing, rawTar([{ path: 'package/small', data: 'x' }]), 200 * MiB);
    });

    it('are small on disk', () => {
      expect(statSync(declared).size).toBeLessThan(MiB);
      expect(statSync(trailing).size).toBeLessThan(MiB);
    });

    it('refuses a file declared over the limit before writing any of it', async () => {
      const target = join(work, 'target-declared');
      const details = await refused(
        declared,
        target,
        'ARCHIVE_TOO_LARGE',
        /"package\/zeros", the files would unpack to more than 10485760 bytes/,
        {
          maxBytes: 10 * MiB,
        },
      );
      expect(details.entry).toBe('package/zeros');
    });

    it('stops inflating data the entries do not account for, long before 200 MiB', async () => {
      const target = join(work, 'target-trailing');
      const details = await refused(trailing, target, 'ARCHIVE_TOO_LARGE', /inflates past \d+ bytes \(stopped reading there\)/, {
        maxBytes: 10 * MiB,
      });
      expect(details.inflatedBytes).toBeLessThan(2 * MiB);
    });
  });

  it('refuses more entries than maxEntries', async () => {
    const { work, target } = arena();
    const entries = Array.from({ length: 11 }, (_, i) => ({ path: `package/f${i}`, data: 'x' }));
    await refused(writeTgz(work, 'many.tgz', entries), target, 'ARCHIVE_TOO_LARGE', /more than 10 entries/, { maxEntries: 10 });
  });

  it('refuses duplicates, including names that differ only in case', async () => {
    const { work, target } = arena();
    await refused(
      writeTgz(work, 'dup.tgz', [
        { path: 'package/README', data: 'a' },
        { path: 'package/readme', data: 'b' },
      ]),
      target,
      'ARCHIVE_CORRUPT',
      /"package\/readme" appears twice/,
    );
  });

  it('refuses corrupt input: not gzip, truncated gzip, a bad header checksum, a truncated tar', async () => {
    const { work, target } = arena();
    const plain = join(work, 'plain.tgz');
    writeFileSync(plain, rawTar([{ path: 'package/x', data: 'x' }]));
    await refused(plain, target, 'ARCHIVE_CORRUPT', /is not a valid gzip-compressed tar archive/);

    const whole = gzipSync(rawTar([{ path: 'package/x', data: 'x'.repeat(5000) }]));
    const cut = join(work, 'cut.tgz');
    writeFileSync(cut, whole.subarray(0, whole.length - 20));
    await refused(cut, target, 'ARCHIVE_CORRUPT', /is not a valid gzip-compressed tar archive/);

    const tar = rawTar([{ path: 'package/x', data: 'x' }]);
    tar[0] = 'q'.charCodeAt(0); // path changes, checksum no longer matches
    const badSum = join(work, 'badsum.tgz');
    writeFileSync(badSum, gzipSync(tar));
    await refused(badSum, target, 'ARCHIVE_CORRUPT', /checksum/);

    const shortTar = rawTar([{ path: 'package/x', data: 'x'.repeat(2000) }]).subarray(0, 1024);
    const short = join(work, 'short.tgz');
    writeFileSync(short, gzipSync(shortTar));
    await refused(short, target, 'ARCHIVE_CORRUPT', /Truncated input/);
  });

  it('refuses an existing target and leaves it alone', async () => {
    const { work, target } = arena();
    mkdirSync(target);
    writeFileSync(join(target, 'keep'), 'mine');
    const file = writeTgz(work, 'ok.tgz', [{ path: 'package/x', data: 'x' }]);
    await expect(safeExtract(file, target)).rejects.toMatchObject({ code: 'ARCHIVE_TARGET_EXISTS' });
    expect(readFileSync(join(target, 'keep'), 'utf8')).toBe('mine');
  });
});
