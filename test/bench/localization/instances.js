// The evaluation inputs of the localization benchmark: the SWE-bench instances (JSONL) and
// the fetched git directories of their repositories, and each instance's base commit
// materialized once under test/bench/.cache/localization/<instance_id>/src.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchDir, repoRoot } from '../common.js';

export const cacheDir = join(benchDir, '.cache', 'localization');
// Bump when the layout of an instance's cache changes, so that an old one is rebuilt.
const CACHE_FORMAT = 2;

/** Where the inputs are expected: `{ dataFile, reposDir }` (env overrides, else the defaults). */
export function inputPaths() {
  return {
    dataFile: resolve(repoRoot, process.env.TRAVSR_EVAL_DATA ?? join('..', 'shared', 'eval', 'swe-dev.jsonl')),
    reposDir: resolve(process.env.TRAVSR_EVAL_REPOS ?? '/work/.mirror'),
  };
}

/** The fetched git dir of `owner/name` under reposDir (`<owner>+<name>/repo`). */
export function gitDirOf(reposDir, repo) {
  return join(reposDir, repo.replace('/', '+'), 'repo');
}

/**
 * The instances, filtered by `repo` and cut to `limit`, or `{ problem }` saying what is missing
 * and how to get it.
 */
export function loadInstances({ repo, limit } = {}) {
  const { dataFile, reposDir } = inputPaths();
  if (!existsSync(dataFile)) {
    return {
      problem: `no evaluation data at ${dataFile}; set TRAVSR_EVAL_DATA to swe-dev.jsonl (see the eval README: shared/eval/)`,
    };
  }
  let instances = readFileSync(dataFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  if (repo) instances = instances.filter((i) => i.repo === repo);
  if (limit !== undefined) instances = instances.slice(0, limit);
  if (instances.length === 0) return { problem: `no instances in ${dataFile}${repo ? ` for ${repo}` : ''}` };
  const missing = [...new Set(instances.map((i) => i.repo))].filter((r) => !existsSync(join(gitDirOf(reposDir, r), 'HEAD')));
  if (missing.length > 0) {
    return {
      problem:
        `repositories not fetched under ${reposDir}: ${missing.join(', ')}; bring each with the fetch tool ` +
        `(e.g. github:${missing[0]}) or set TRAVSR_EVAL_REPOS to a dir holding <owner>+<name>/repo`,
    };
  }
  return { instances, reposDir };
}

/** The cache dir of one instance: `src/` (the tree at base_commit) and its markers. */
export function instanceDir(instance) {
  return join(cacheDir, instance.instance_id);
}

/**
 * The tree of `instance.base_commit`, extracted once with `git archive | tar -x` and committed
 * into a fresh git repository; the marker file is written last, so an interrupted extraction is
 * redone. Returns the `src` path.
 */
export function materialize(instance, reposDir) {
  const dir = instanceDir(instance);
  const src = join(dir, 'src');
  const marker = join(dir, 'SRC_COMPLETE');
  if (existsSync(marker)) {
    try {
      const m = JSON.parse(readFileSync(marker, 'utf8'));
      if (m.format === CACHE_FORMAT && m.commit === instance.base_commit && existsSync(src)) return src;
    } catch {
      // rewritten below
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  const gitDir = gitDirOf(reposDir, instance.repo);
  // Two steps rather than a shell pipe, so that a missing commit fails here and not as an empty tree.
  const tarball = execFileSync('git', ['--git-dir', gitDir, 'archive', instance.base_commit], {
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', src], { input: tarball, stdio: ['pipe', 'ignore', 'pipe'] });
  // Its own git repository with one commit, as a user's checkout is: otherwise git (and so
  // `travsr init`) would take the enclosing work tree, this monorepo, for the repository.
  const git = (args) => execFileSync('git', ['-C', src, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git([
    '-c',
    'user.name=travsr-bench',
    '-c',
    'user.email=bench@travsr.invalid',
    'commit',
    '-q',
    '--no-verify',
    '-m',
    `${instance.repo}@${instance.base_commit}`,
  ]);
  writeFileSync(marker, JSON.stringify({ format: CACHE_FORMAT, repo: instance.repo, commit: instance.base_commit }));
  return src;
}
