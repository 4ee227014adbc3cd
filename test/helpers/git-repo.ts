import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.org',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.org',
};

/** A real git repository in a temp directory, driven the way a developer would. */
export class GitRepo {
  readonly root: string;
  /** A new repository, or with `copyOf` a byte copy of one (work tree, .git, .travsr) in a directory of its own. */
  constructor(prefix = 'travsr-git-', copyOf?: GitRepo) {
    this.root = mkdtempSync(join(tmpdir(), prefix));
    if (copyOf) cpSync(copyOf.root, this.root, { recursive: true });
    else this.git('init', '-q', '-b', 'main');
  }
  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.root,
      env: { ...process.env, ...GIT_ENV },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  write(files: Record<string, string>): this {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.root, path)), { recursive: true });
      writeFileSync(join(this.root, path), text);
    }
    return this;
  }
  move(from: string, to: string): this {
    mkdirSync(dirname(join(this.root, to)), { recursive: true });
    renameSync(join(this.root, from), join(this.root, to));
    return this;
  }
  remove(path: string): this {
    rmSync(join(this.root, path));
    return this;
  }
  /**
   * Stages everything and commits (the post-commit hook runs, as for a user). One shell runs the
   * three git commands: each process a test file's (large) worker starts costs it several ms.
   */
  commit(message: string): string {
    return execFileSync('sh', ['-c', 'git add -A && git commit -q --allow-empty -m "$1" && git rev-parse HEAD', 'sh', message], {
      cwd: this.root,
      env: { ...process.env, ...GIT_ENV },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .trim()
      .split('\n')
      .pop()!; // the hook may have written lines before the hash
  }
  /** A copy of the committed tree (no .git, no .travsr) in a fresh directory. */
  exportTree(): string {
    const dir = mkdtempSync(join(tmpdir(), 'travsr-tree-'));
    execFileSync('sh', ['-c', `git archive HEAD | tar -x -C '${dir}'`], { cwd: this.root });
    return dir;
  }
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
