import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HookError, HookErrorCode } from './errors.js';
import { hasHookBlock, isEffectivelyEmpty, isShellScript, removeHookBlock, renderHookBlock, spliceHookBlock } from './hook-script.js';
import { gitPath } from './repo.js';

/** What {@link installPostCommitHook} needs. */
export interface InstallHookOptions {
  /**
   * The program and arguments the hook runs, e.g.
   * `[process.execPath, '/abs/host/bin/run.js', 'hook-run', '--from-hook']`. Absolute paths
   * make the hook work without travsr on PATH.
   */
  command: readonly string[];
}

/** What {@link installPostCommitHook} did. */
export interface InstallHookResult {
  /** The hook file (in `core.hooksPath` when set). */
  path: string;
  /**
   * `created`: there was no hook; `updated`: our block was rewritten; `chained`: a foreign
   * hook was kept and our block added to it; `unchanged`: it was already as asked.
   */
  action: 'created' | 'updated' | 'chained' | 'unchanged';
}

/** What {@link uninstallPostCommitHook} did. */
export interface UninstallHookResult {
  path: string;
  /** `removed`: the file held only our block and is gone; `unchained`: our block was taken out of a foreign hook; `not-installed`: no block found. */
  action: 'removed' | 'unchained' | 'not-installed';
}

/** The post-commit hook as {@link hookStatus} finds it. */
export interface HookStatus {
  path: string;
  /** `installed`: our block is there; `foreign-only`: a hook without our block; `missing`: no hook (or an empty one). */
  state: 'installed' | 'missing' | 'foreign-only';
  /** Whether git will run the file (it skips hooks without the executable bit). */
  executable: boolean;
}

/**
 * The post-commit hook file git runs for the repository at `root`: `<git dir>/hooks/post-commit`,
 * or under `core.hooksPath` when set; linked worktrees share their main repository's.
 */
export async function postCommitHookPath(root: string): Promise<string> {
  return gitPath(root, 'hooks/post-commit');
}

/**
 * Installs (or updates in place) the travsr block in the post-commit hook, so every commit
 * runs `options.command` from the top of the working tree. The block runs in the foreground
 * with a timeout (TRAVSR_HOOK_TIMEOUT seconds, default 30), appends the command's output to
 * `<repo>/.travsr/hook.log`, ignores its exit status, and is skipped when
 * TRAVSR_HOOK_DISABLE=1; TRAVSR_HOOK_BACKGROUND=1 runs it detached instead. A foreign shell
 * hook is kept byte for byte: the block goes right after its `#!` line and runs in a subshell.
 *
 * @throws HookError `HOOK_COMMAND_INVALID`, `HOOK_FOREIGN_NOT_SHELL` (a Python or Node hook:
 *   nothing is changed), `HOOK_FOREIGN_DISABLED` (a foreign hook without the executable bit:
 *   adding ours would switch it on), `HOOK_BLOCK_CORRUPT`, `HOOK_IO_FAILED`.
 * @throws GitError `GIT_NOT_A_REPOSITORY` when `root` is not in a repository.
 * @example
 * const { path, action } = await installPostCommitHook(root, {
 *   command: [process.execPath, binPath, 'hook-run', '--from-hook'],
 * });
 */
export async function installPostCommitHook(root: string, options: InstallHookOptions): Promise<InstallHookResult> {
  const block = renderHookBlock(options.command);
  const path = await postCommitHookPath(root);
  const current = await readHook(path);
  const text = spliceHookBlock(current?.text, block, path);

  let action: InstallHookResult['action'];
  if (current === undefined || isEffectivelyEmpty(current.text)) {
    action = 'created';
  } else {
    const ours = hasHookBlock(current.text, path);
    const foreign = !isEffectivelyEmpty(ours ? (removeHookBlock(current.text, path) ?? '') : current.text);
    if (foreign && !current.executable) {
      throw new HookError(
        HookErrorCode.ForeignDisabled,
        `${path} exists but is not executable, so git does not run it; adding the travsr block would switch it on. ` +
          'Make it executable (chmod +x) or delete it, then run travsr init again.',
        path,
      );
    }
    if (!ours && !isShellScript(current.text)) {
      throw new HookError(
        HookErrorCode.ForeignNotShell,
        `${path} is not a shell script (${JSON.stringify(current.text.split('\n', 1)[0])}), so travsr cannot add its block to it. ` +
          'Move it to another name and call it from a shell post-commit hook, then run travsr init again.',
        path,
      );
    }
    if (!ours) action = 'chained';
    else if (text === current.text && current.executable) return { path, action: 'unchanged' };
    else action = 'updated';
  }
  await writeHook(current?.target ?? path, text, current?.mode);
  return { path, action };
}

/**
 * Takes the travsr block out of the post-commit hook, leaving every other line as it was;
 * deletes the file when nothing else is left in it.
 *
 * @throws HookError `HOOK_BLOCK_CORRUPT`, `HOOK_IO_FAILED`.
 */
export async function uninstallPostCommitHook(root: string): Promise<UninstallHookResult> {
  const path = await postCommitHookPath(root);
  const current = await readHook(path);
  const rest = current && removeHookBlock(current.text, path);
  if (current === undefined || rest === undefined) return { path, action: 'not-installed' };
  if (isEffectivelyEmpty(rest) && !current.symlink) {
    await io(path, 'delete', () => rm(current.target, { force: true }));
    return { path, action: 'removed' };
  }
  await writeHook(current.target, rest, current.mode);
  return { path, action: 'unchained' };
}

/**
 * Whether the post-commit hook holds the travsr block.
 *
 * @throws HookError `HOOK_BLOCK_CORRUPT`, `HOOK_IO_FAILED`.
 */
export async function hookStatus(root: string): Promise<HookStatus> {
  const path = await postCommitHookPath(root);
  const current = await readHook(path);
  if (current === undefined || isEffectivelyEmpty(current.text))
    return { path, state: 'missing', executable: current?.executable ?? false };
  return { path, state: hasHookBlock(current.text, path) ? 'installed' : 'foreign-only', executable: current.executable };
}

interface HookFile {
  text: string;
  /** The file the bytes live in: `path`, or what it links to. */
  target: string;
  symlink: boolean;
  mode: number;
  executable: boolean;
}

async function readHook(path: string): Promise<HookFile | undefined> {
  let symlink: boolean;
  try {
    symlink = (await lstat(path)).isSymbolicLink();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(path, 'read', e);
  }
  return io(path, 'read', async () => {
    // A hook that links elsewhere (a shared hooks script) is edited where it lives, not replaced.
    const target = symlink ? await realpath(path) : path;
    const st = await stat(target);
    return { text: await readFile(target, 'utf8'), target, symlink, mode: st.mode & 0o7777, executable: (st.mode & 0o111) !== 0 };
  });
}

/** Writes through a temporary file and a rename, so git never runs a half-written hook. */
async function writeHook(target: string, text: string, mode: number | undefined): Promise<void> {
  // chmod +x where readable, like `chmod +x`; a new hook is rwxr-xr-x.
  const finalMode = mode === undefined ? 0o755 : mode | ((mode & 0o444) >> 2) | 0o100;
  const tmp = `${target}.travsr-${randomBytes(4).toString('hex')}`;
  await io(target, 'write', async () => {
    await mkdir(dirname(target), { recursive: true });
    try {
      await writeFile(tmp, text, { mode: finalMode });
      await chmod(tmp, finalMode);
      await rename(tmp, target);
    } finally {
      await rm(tmp, { force: true });
    }
  });
}

async function io<T>(path: string, verb: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw ioError(path, verb, e);
  }
}

function ioError(path: string, verb: string, e: unknown): HookError {
  if (e instanceof HookError) return e;
  const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return new HookError(
    HookErrorCode.IoFailed,
    `Could not ${verb} the git hook ${path} (${why}). Check its permissions and try again.`,
    path,
  );
}
