// Packs every built first-party plugin (plugins/*/ whose manifest entrypoint exists) into
// host/builtin-registry/, a signed registry that ships with Travsr so that `travsr lang install`
// works offline. The signing key is generated here and thrown away: only its public half is
// kept (builtin-registry/builtin-key.pub), which the host always trusts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSigningKey, packPlugin, publishArtifact, trustedKeyOf } from '@travsr/registry';
import { buildIfChanged, workspaceDependencyInputs } from '@travsr/sdk/build';

const host = dirname(dirname(fileURLToPath(import.meta.url)));
const pluginsDir = join(host, '..', 'plugins');
const out = join(host, 'builtin-registry');

const built = [];
const skipped = [];
for (const name of existsSync(pluginsDir) ? readdirSync(pluginsDir).sort() : []) {
  const dir = join(pluginsDir, name);
  const manifestFile = join(dir, 'travsr-plugin.json');
  if (!existsSync(manifestFile)) continue;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (existsSync(join(dir, manifest.entrypoint?.path ?? ''))) built.push(dir);
  else skipped.push(name);
}

// Nothing to do when the plugins and the packing code are what they were at the last build.
const step = {
  name: 'built-in registry',
  root: host,
  inputs: [fileURLToPath(import.meta.url), ...built, ...workspaceDependencyInputs(host)],
  outputs: [out],
};
await buildIfChanged(step, async () => {
  const key = generateSigningKey();
  const work = await mkdtemp(join(tmpdir(), 'travsr-builtin-registry-'));
  const staging = join(work, 'registry');
  try {
    for (const dir of built) {
      const packed = await packPlugin(dir, join(work, 'packed'));
      await publishArtifact(staging, packed.file, key);
    }
    await writeFile(join(staging, 'builtin-key.pub'), `${JSON.stringify(trustedKeyOf(key), null, 2)}\n`);
    await rm(out, { recursive: true, force: true });
    await rename(staging, out).catch(async () => {
      // Another file system (tmpdir on tmpfs): copy instead.
      const { cp } = await import('node:fs/promises');
      await cp(staging, out, { recursive: true });
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  console.log(
    `built-in registry: ${built.length} plugin(s) in ${out}, signed with ${key.keyId}` +
      (skipped.length > 0 ? `; not built, left out: ${skipped.join(', ')}` : ''),
  );
});
