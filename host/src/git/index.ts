/**
 * Git for the indexer: where the repository is, what a commit changed, and the post-commit
 * hook that keeps the graph up to date.
 */
export { GitError, GitErrorCode, HookError, HookErrorCode } from './errors.js';
export { findRepoRoot, isGitRepo, headCommit, gitDir, gitCommonDir, gitPath, resolveCommit } from './repo.js';
export { readCommitDiff, readHeadChange, changedSince, diffCommits, COMMIT_HASH } from './commit-diff.js';
export { dirtyFiles } from './working-tree.js';
export type { CommitDiff, CommitDiffRange, HeadChange, RenamedFile, SubmoduleChange } from './commit-diff.js';
export { installPostCommitHook, uninstallPostCommitHook, hookStatus, postCommitHookPath } from './hook-installer.js';
export type { InstallHookOptions, InstallHookResult, UninstallHookResult, HookStatus } from './hook-installer.js';
export { HOOK_BLOCK_BEGIN, HOOK_BLOCK_END, DEFAULT_HOOK_TIMEOUT_SECONDS, DAEMON_PID_FILE } from './hook-script.js';
