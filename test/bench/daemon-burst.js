// A burst of random edits, new files, renames and deletes in a Python package while the daemon
// watches it: once it is quiet, the daemon's graph must equal a rebuild of the working tree. The
// test (test/daemon/daemon-burst.test.ts) runs a short burst; the `daemon` benchmark runs 1,000
// operations over 60 s.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { prng } from './common.js';

/** A module of `pkg/` whose functions call functions of other modules (by import) and its own. */
function moduleText(name, others, rand, version) {
  const lines = [];
  const imported = others.filter(() => rand() < 0.3).slice(0, 3);
  for (const o of imported) lines.push(`from pkg.${o} import f0 as ${o}_f0`);
  lines.push('', '');
  const count = 2 + Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    lines.push(`def f${i}(x):`);
    if (i > 0) lines.push(`    y = f${i - 1}(x)`);
    else lines.push('    y = x');
    for (const o of imported) if (rand() < 0.5) lines.push(`    y = ${o}_f0(y)`);
    lines.push(`    return y + ${version}`, '', '');
  }
  lines.push('class Thing:', '    def run(self):', `        return f0(${version})`, '');
  return lines.join('\n');
}

/** Writes the starting package: `files` modules. */
export function writePackage(root, files, seed) {
  const rand = prng(seed);
  const names = Array.from({ length: files }, (_, i) => `m${i}`);
  mkdirSync(join(root, 'pkg'), { recursive: true });
  writeFileSync(join(root, 'pkg', '__init__.py'), '');
  for (const n of names) writeFileSync(join(root, 'pkg', `${n}.py`), moduleText(n, names, rand, 0));
}

/**
 * Runs `operations` random operations over `durationMs` (evenly spread, with short bursts):
 * edit a module, add one, rename one (same package), delete one, or add/remove a sub-package.
 * Returns how many of each were done.
 */
export async function burst(root, operations, durationMs, seed) {
  const rand = prng(seed);
  const done = { edit: 0, add: 0, rename: 0, delete: 0, directory: 0 };
  let next = 1000;
  const modules = () =>
    readdirSync(join(root, 'pkg'))
      .filter((f) => f.endsWith('.py') && f !== '__init__.py')
      .map((f) => f.slice(0, -3));
  const gap = durationMs / operations;
  const t0 = Date.now();
  for (let i = 0; i < operations; i++) {
    const mods = modules();
    const pick = () => mods[Math.floor(rand() * mods.length)];
    const r = rand();
    if (r < 0.6 && mods.length > 0) {
      const m = pick();
      writeFileSync(join(root, 'pkg', `${m}.py`), moduleText(m, mods, rand, i));
      done.edit++;
    } else if (r < 0.75 || mods.length < 5) {
      const m = `m${next++}`;
      writeFileSync(join(root, 'pkg', `${m}.py`), moduleText(m, mods, rand, i));
      done.add++;
    } else if (r < 0.85) {
      renameSync(join(root, 'pkg', `${pick()}.py`), join(root, 'pkg', `m${next++}.py`));
      done.rename++;
    } else if (r < 0.95) {
      rmSync(join(root, 'pkg', `${pick()}.py`), { force: true });
      done.delete++;
    } else {
      const sub = join(root, 'pkg', 'sub');
      if (existsSync(sub)) rmSync(sub, { recursive: true, force: true });
      else {
        mkdirSync(dirname(join(sub, 'x')), { recursive: true });
        writeFileSync(join(sub, '__init__.py'), '');
        writeFileSync(join(sub, 'inner.py'), moduleText('inner', mods, rand, i));
      }
      done.directory++;
    }
    // Evenly spread, in small bursts (an editor saving several files at once).
    const due = t0 + (i + 1) * gap;
    if (i % 5 === 4 && due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  }
  return done;
}
