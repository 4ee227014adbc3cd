import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Prefix of the temporary files and directories written next to their destination.
 * @example
 * ```ts
 * name.startsWith(TEMP_PREFIX); // a leftover of an interrupted write
 * ```
 */
export const TEMP_PREFIX = '.travsr-tmp-';

function tempNameFor(file: string): string {
  return join(dirname(file), `${TEMP_PREFIX}${basename(file)}-${randomBytes(6).toString('hex')}`);
}

/**
 * Writes a file so that readers see the old bytes or the new ones, never a mix: a
 * temporary file in the same directory, flushed, then renamed over the destination.
 *
 * @example
 * ```ts
 * await writeFileAtomic(join(registryDir, 'index.json'), serializeDocument(index));
 * ```
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = tempNameFor(file);
  try {
    const handle = await open(tmp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Copies a file into place the same way as {@link writeFileAtomic}.
 * @example
 * ```ts
 * await copyFileAtomic(packed.file, join(registryDir, artifactPath(id, version, 'any')));
 * ```
 */
export async function copyFileAtomic(source: string, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = tempNameFor(file);
  try {
    await copyFile(source, tmp);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
