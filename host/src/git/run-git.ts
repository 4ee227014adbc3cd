import { statSync } from 'node:fs';
import { execa } from 'execa';
import { GitError, GitErrorCode } from './errors.js';

/**
 * Variables git sets for the repository it is working on (`git rev-parse --local-env-vars`)
 * plus the ones that change diff output. A hook inherits the first set from the git that ran
 * it; left in place they would point every git command at that repository, whatever `cwd` says.
 */
const DROPPED_ENV = [
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_COMMON_DIR',
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
];

/** Diff output of a large first commit can be big; a 100k-file repository prints about 10 MiB. */
const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

/** The environment every git command of this module runs with. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of DROPPED_ENV) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('GIT_CONFIG_KEY_') || name.startsWith('GIT_CONFIG_VALUE_')) delete env[name];
  // No index.lock refresh from read-only commands (they may run while the user commits);
  // English messages, because a few are recognised below; never prompt, never page.
  env.GIT_OPTIONAL_LOCKS = '0';
  env.LC_ALL = 'C';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_PAGER = 'cat';
  return env;
}

/** What a git command printed and how it ended. */
export interface GitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `git <args>` in `cwd` with {@link gitEnv}. Resolves whatever the exit code; throws a
 * {@link GitError} only when git cannot be started or `cwd` does not exist.
 */
export async function runGit(cwd: string, args: readonly string[], options: { input?: string } = {}): Promise<GitResult> {
  const argv = ['--no-pager', ...args];
  const r = await execa('git', argv, {
    cwd,
    env: gitEnv(),
    extendEnv: false,
    reject: false,
    encoding: 'buffer',
    maxBuffer: MAX_OUTPUT_BYTES,
    stripFinalNewline: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
  });
  if (r.exitCode === undefined) {
    if (!isDirectory(cwd)) {
      throw new GitError(GitErrorCode.PathNotFound, `${cwd} does not exist or is not a directory. Check the path and try again.`, args);
    }
    if (r.code === 'ENOENT') {
      throw new GitError(
        GitErrorCode.NotInstalled,
        'git could not be started: it is not on PATH. Install git (2.31 or newer) and try again.',
        args,
      );
    }
    throw new GitError(GitErrorCode.CommandFailed, `git ${args.join(' ')} could not run in ${cwd}: ${r.shortMessage}.`, args);
  }
  return { exitCode: r.exitCode, stdout: Buffer.from(r.stdout), stderr: Buffer.from(r.stderr).toString('utf8').trim() };
}

/**
 * Runs git and returns its stdout as text without the final newline; throws a
 * {@link GitError} classified from git's message when it exits non-zero.
 */
export async function gitText(cwd: string, args: readonly string[], options: { input?: string } = {}): Promise<string> {
  const r = await runGit(cwd, args, options);
  if (r.exitCode !== 0) throw gitFailure(cwd, args, r);
  return stripNewline(r.stdout.toString('utf8'));
}

/** The {@link GitError} for a failed git command, recognising the failures a user can fix. */
export function gitFailure(cwd: string, args: readonly string[], r: GitResult): GitError {
  if (/dubious ownership/i.test(r.stderr)) {
    return new GitError(
      GitErrorCode.UnsafeRepository,
      `git refuses the repository at ${cwd}: it is owned by another user (git's safe.directory check). ` +
        `If you trust it, run: git config --global --add safe.directory '${cwd}'`,
      args,
      r.stderr,
    );
  }
  if (/not a git repository/i.test(r.stderr)) {
    return new GitError(
      GitErrorCode.NotARepository,
      `${cwd} is not inside a git repository. Run travsr in a git working tree, or run git init there first.`,
      args,
      r.stderr,
    );
  }
  return new GitError(
    GitErrorCode.CommandFailed,
    `git ${args.join(' ')} failed in ${cwd} (exit ${r.exitCode}): ${r.stderr || 'no message'}. Fix what git says and try again.`,
    args,
    r.stderr,
  );
}

function stripNewline(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
