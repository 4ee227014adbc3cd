// Benchmark `install` (issue 6): `travsr lang install` of a first-party plugin from the built-in
// registry and from a local HTTP registry on 127.0.0.1 (target under 1 s each, whole CLI
// process), and `travsr init` from nothing (an empty TRAVSR_HOME) to an indexed repository.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { log, repoRoot, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { runTravsr } from './travsr-cli.js';

export const name = 'install';
export const title = 'plugin install';

const ROUNDS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function gitRepo(files) {
  const dir = tempDir('install-repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

async function installTimes(label, env) {
  const walls = [];
  for (let i = 0; i < ROUNDS; i++) {
    const home = tempDir('install-home');
    const repo = gitRepo({ 'main.lua': 'print("hi")\n' });
    const r = await runTravsr(['lang', 'install', 'lua', '--repo', repo, '--json'], { home, env, cwd: repo });
    if (r.code !== 0) throw new Error(`lang install exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
    walls.push(r.wallMs);
  }
  const m = median(walls);
  return row(
    title,
    `lang install lua (example-lua) from ${label}: whole process, median of ${ROUNDS}`,
    m,
    'ms',
    '< 1000 ms',
    m < 1000 ? 'pass' : 'below',
  );
}

export async function run() {
  const rows = [];
  const registry = await import(pathToFileURL(join(repoRoot, 'registry', 'dist', 'index.js')).href);
  rows.push(await installTimes('the built-in registry', {}));

  // A local HTTP registry with the same artifact, signed by its own key.
  const dir = tempDir('install-registry');
  const key = registry.generateSigningKey();
  const keyFile = join(tempDir('install-key'), 'key.pem');
  registry.writeSigningKey(keyFile, key);
  const packed = await registry.packPlugin(join(repoRoot, 'plugins', 'example-lua'), tempDir('install-pack'));
  await registry.publishArtifact(dir, packed.file, key);
  const server = await registry.serveRegistry({ dir, host: '127.0.0.1', port: 0 });
  try {
    rows.push(await installTimes(`HTTP on 127.0.0.1`, { TRAVSR_REGISTRY_URL: server.url, TRAVSR_REGISTRY_TRUSTED_KEYS: `${keyFile}.pub` }));
  } finally {
    await server.close();
  }

  // `travsr init` with an empty TRAVSR_HOME: registration + index of a small mixed repository.
  if (!sandboxAvailable()) rows.push(skipRow(title, 'bwrap is not usable here: travsr init cannot run the plugins'));
  else {
    const walls = [];
    for (let i = 0; i < 3; i++) {
      const repo = gitRepo({
        'src/app.ts': 'import { f } from "./lib";\nexport function main() {\n  return f();\n}\n',
        'src/lib.ts': 'export function f() {\n  return 1;\n}\n',
        'tool/run.py': 'def run():\n    return main()\n',
        'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
      });
      const r = await runTravsr(['init', repo, '--no-hook', '--json'], { home: tempDir('install-fresh-home') });
      if (r.code !== 0) throw new Error(`travsr init exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
      walls.push(r.wallMs);
    }
    rows.push(
      row(title, 'travsr init from an empty TRAVSR_HOME to an indexed repository (TS + Python, 4 files), median of 3', median(walls), 'ms'),
    );
  }
  log('install: done');
  return rows;
}
