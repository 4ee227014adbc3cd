// Real git repositories in temporary folders. The user's and the system's git config are
// shut out (an empty GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM), so a core.hooksPath or
// commit.gpgsign on the machine cannot change what the tests see; the library under test
// reads process.env, so it runs under the same isolation.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

const configDir = mkdtempSync(join(tmpdir(), 'travsr-gitconfig-'));
writeFileSync(join(configDir, 'gitconfig'), '');
Object.assign(process.env, {
  GIT_CONFIG_GLOBAL: join(configDir, 'gitconfig'),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Travsr Test',
  GIT_AUTHOR_EMAIL: 'test@travsr.invalid',
  GIT_COMMITTER_NAME: 'Travsr Test',
  GIT_COMMITTER_EMAIL: 'test@travsr.invalid',
});

/** A temporary folder outside any repository. */
export function tempDir(prefix = 'travsr-git-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Result of a git command run by a test. */
export interface GitRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A throwaway repository with helpers to change files and commit. */
export class TestRepo {
  constructor(readonly root: string) {}

  static async create(): Promise<TestRepo> {
    const root = tempDir('travsr-repo-');
    const repo = new TestRepo(root);
    await repo.git('init', '-q', '-b', 'main');
    return repo;
  }

  /** Runs git here; throws on a non-zero exit. */
  async git(...args: string[]): Promise<string> {
    const r = await this.run(args);
    if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed (${r.exitCode}): ${r.stderr}`);
    return r.stdout;
  }

  /** Runs git here with extra environment; resolves whatever the exit code. */
  async run(args: string[], env: Record<string, string> = {}): Promise<GitRun> {
    const r = await execa('git', args, { cwd: this.root, env, reject: false });
    return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  write(path: string, content: string | Uint8Array): void {
    const abs = join(this.root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }

  /** `git mv`, making the destination folder first. */
  async mv(from: string, to: string): Promise<void> {
    mkdirSync(dirname(join(this.root, to)), { recursive: true });
    await this.git('mv', from, to);
  }

  remove(path: string): void {
    rmSync(join(this.root, path), { recursive: true });
  }

  /** Stages everything and commits; returns the new commit's hash. */
  async commit(message: string, env: Record<string, string> = {}): Promise<string> {
    await this.git('add', '-A');
    const r = await this.run(['commit', '-q', '--allow-empty', '-m', message], env);
    if (r.exitCode !== 0) throw new Error(`git commit failed (${r.exitCode}): ${r.stderr}`);
    return this.head();
  }

  async head(): Promise<string> {
    return (await this.git('rev-parse', 'HEAD')).trim();
  }
}

/** `n` lines of distinct text, so git's rename detection has something to compare. */
export function lines(n: number, tag = 'line'): string {
  return Array.from({ length: n }, (_, i) => `${tag} ${i} of a file that is long enough to compare`).join('\n') + '\n';
}
