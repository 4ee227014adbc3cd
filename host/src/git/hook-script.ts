import { HookError, HookErrorCode } from './errors.js';

/** First line of the block travsr owns in a hook file. */
export const HOOK_BLOCK_BEGIN = '# >>> travsr >>>';
/** Last line of the block travsr owns in a hook file. */
export const HOOK_BLOCK_END = '# <<< travsr <<<';

/** Seconds a foreground hook run may take before it is stopped, unless TRAVSR_HOOK_TIMEOUT says otherwise. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 30;

/**
 * A file in a repository's `.travsr/` holding the pid of the daemon that follows its HEAD
 * (`travsr daemon`, `HeadWatcher`). While that process lives, the post-commit hook has nothing
 * to do and returns at once; the daemon writes the file when it starts managing the
 * repository and removes it when it stops.
 */
export const DAEMON_PID_FILE = 'daemon.pid';

/** Hook logs above this size are moved to `hook.log.1` before the next run writes. */
const LOG_ROTATE_BYTES = 1024 * 1024;

/** Interpreters whose scripts can take a POSIX sh block. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh', 'zsh']);

/** Quotes one word for POSIX sh. */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The travsr block of a post-commit hook, ending with a newline. It runs `command` from the
 * top of the working tree with stdin closed and its output appended to `.travsr/hook.log`,
 * stops it after TRAVSR_HOOK_TIMEOUT seconds (default 30, 0 for no limit), ignores its exit status and never
 * exits the surrounding script: everything runs in a subshell, so a foreign hook around the
 * block behaves as before. Failures leave one line on the commit's stderr (foreground only)
 * and the details in the log. While a daemon that follows the repository's HEAD runs (its pid
 * in `.travsr/daemon.pid`, the process's arguments `run.js serve` or `travsr serve`), the block only logs that the
 * daemon has the commit: no Node process starts. `TRAVSR_DAEMON=0` runs the command anyway.
 *
 * @throws HookError `HOOK_COMMAND_INVALID` when `command` is empty or holds NUL or line breaks.
 */
export function renderHookBlock(command: readonly string[]): string {
  const program = command[0];
  if (program === undefined || program === '') {
    throw new HookError(
      HookErrorCode.CommandInvalid,
      'The hook command is empty. Pass the program and its arguments, e.g. [node, run.js, "hook-run", "--from-hook"].',
    );
  }
  const bad = command.find((w) => /[\0\r\n]/.test(w));
  if (bad !== undefined) {
    throw new HookError(
      HookErrorCode.CommandInvalid,
      `The hook command word ${JSON.stringify(bad)} holds a NUL or line break, which a hook script cannot carry. Install travsr under a path without them.`,
    );
  }
  const cmd = command.map(shQuote).join(' ');
  const notFound = `travsr hook: command not found: ${program.replaceAll("'", '')}. The commit is fine. Re-run travsr init to reinstall the hook.`;
  return `${HOOK_BLOCK_BEGIN}
# Installed by travsr: updates the code graph after each commit. It never fails the commit;
# its output goes to .travsr/hook.log. travsr rewrites only the lines between the markers.
#   TRAVSR_HOOK_DISABLE=1     skip it
#   TRAVSR_HOOK_BACKGROUND=1  run it detached, so the commit returns at once
#   TRAVSR_HOOK_TIMEOUT=<s>   stop it after this many seconds (default ${DEFAULT_HOOK_TIMEOUT_SECONDS}; 0: no limit)
(
  set +e
  [ "\${TRAVSR_HOOK_DISABLE:-}" = 1 ] && exit 0
  travsr_root=$(git rev-parse --show-toplevel 2>/dev/null) && cd "$travsr_root" || exit 0
  unset $(git rev-parse --local-env-vars 2>/dev/null) 2>/dev/null
  mkdir -p .travsr 2>/dev/null || exit 0
  travsr_log=.travsr/hook.log
  travsr_size=$(wc -c 2>/dev/null <"$travsr_log" | tr -d ' ')
  [ "\${travsr_size:-0}" -gt ${LOG_ROTATE_BYTES} ] 2>/dev/null && mv -f "$travsr_log" "$travsr_log.1"
  # A running daemon follows HEAD by itself: nothing to start.
  travsr_daemon=$(cat .travsr/${DAEMON_PID_FILE} 2>/dev/null)
  case $travsr_daemon in ''|*[!0-9]*) travsr_daemon= ;; esac
  if [ -n "$travsr_daemon" ] && [ "\${TRAVSR_DAEMON:-}" != 0 ]; then
    if [ -r "/proc/$travsr_daemon/cmdline" ]; then
      travsr_args=$(tr '\\000' ' ' <"/proc/$travsr_daemon/cmdline" 2>/dev/null)
    else
      travsr_args=$(ps -p "$travsr_daemon" -o args= 2>/dev/null)
    fi
    case $travsr_args in
      *'run.js serve'*|*'travsr serve'*)
        echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') post-commit $(git rev-parse --short HEAD 2>/dev/null): the daemon (pid $travsr_daemon) follows HEAD" >>"$travsr_log"
        exit 0 ;;
    esac
  fi
  travsr_limit=\${TRAVSR_HOOK_TIMEOUT:-${DEFAULT_HOOK_TIMEOUT_SECONDS}}
  case $travsr_limit in ''|*[!0-9]*) travsr_limit=${DEFAULT_HOOK_TIMEOUT_SECONDS} ;; esac
  travsr_run() {
    echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') post-commit $(git rev-parse --short HEAD 2>/dev/null)"
    ${cmd} &
    travsr_pid=$!
    travsr_watch=
    if [ "$travsr_limit" -gt 0 ]; then
      (
        travsr_waited=0
        while [ "$travsr_waited" -lt "$travsr_limit" ]; do
          sleep 1
          kill -0 "$travsr_pid" 2>/dev/null || exit 0
          travsr_waited=$((travsr_waited + 1))
        done
        echo "travsr hook: stopped after \${travsr_limit}s (TRAVSR_HOOK_TIMEOUT). The commit is fine; the next run catches up."
        kill "$travsr_pid" 2>/dev/null
        sleep 5
        kill -9 "$travsr_pid" 2>/dev/null
      ) &
      travsr_watch=$!
    fi
    wait "$travsr_pid"
    travsr_status=$?
    [ -n "$travsr_watch" ] && kill "$travsr_watch" 2>/dev/null
    case $travsr_status in
      0) ;;
      127) printf '%s\\n' ${shQuote(notFound)} ;;
      *) echo "travsr hook: exited with status $travsr_status. The commit is fine. See the lines above; run travsr hook-run to retry." ;;
    esac
    return "$travsr_status"
  }
  # exec, not a redirection on the call: sh keeps copies of redirected descriptors, and a copy
  # of git's stderr left in the command would hold the caller of git commit until it ends.
  if [ "\${TRAVSR_HOOK_BACKGROUND:-}" = 1 ]; then
    (trap '' HUP; exec >>"$travsr_log" 2>&1 </dev/null; travsr_run) &
  elif ! (exec >>"$travsr_log" 2>&1 </dev/null; travsr_run); then
    echo "travsr: the code graph was not updated for this commit; see $travsr_root/.travsr/hook.log" >&2
  fi
  exit 0
) || :
${HOOK_BLOCK_END}
`;
}

/** Where the travsr block sits in a hook file, as line indexes (inclusive). */
interface BlockSpan {
  begin: number;
  end: number;
}

function findBlock(lines: readonly string[], path: string): BlockSpan | undefined {
  const begins: number[] = [];
  const ends: number[] = [];
  lines.forEach((line, i) => {
    const l = line.trimEnd();
    if (l === HOOK_BLOCK_BEGIN) begins.push(i);
    else if (l === HOOK_BLOCK_END) ends.push(i);
  });
  if (begins.length === 0 && ends.length === 0) return undefined;
  const [begin] = begins;
  const [end] = ends;
  if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined || end < begin) {
    throw new HookError(
      HookErrorCode.BlockCorrupt,
      `${path} has travsr markers out of order or repeated (${begins.length} "${HOOK_BLOCK_BEGIN}", ${ends.length} "${HOOK_BLOCK_END}"), ` +
        'so travsr cannot tell its lines from yours. Delete the travsr lines by hand and run travsr init again.',
      path,
    );
  }
  return { begin, end };
}

/** True when `text` holds the travsr block. @throws HookError `HOOK_BLOCK_CORRUPT`. */
export function hasHookBlock(text: string, path: string): boolean {
  return findBlock(text.split('\n'), path) !== undefined;
}

/** True when nothing but a shebang, blank lines or nothing is in `text`. */
export function isEffectivelyEmpty(text: string): boolean {
  return text
    .split('\n')
    .filter((l, i) => !(i === 0 && l.startsWith('#!')))
    .every((l) => l.trim() === '');
}

/**
 * True when the script runs under a POSIX-compatible shell: a `#!` line naming sh, bash,
 * dash, ash, ksh, mksh or zsh (directly or through `env`), or no `#!` line at all, which git
 * runs with `/bin/sh`.
 */
export function isShellScript(text: string): boolean {
  const first = text.split('\n', 1)[0] ?? '';
  if (!first.startsWith('#!')) return true;
  const words = first.slice(2).trim().split(/\s+/);
  let program = basename(words[0] ?? '');
  if (program === 'env') program = basename(words.slice(1).find((w) => !w.startsWith('-') && !w.includes('=')) ?? '');
  return SHELLS.has(program);
}

/**
 * `existing` with the block put in: replacing the block already there, or, in a foreign
 * script, right after its `#!` line, so an `exit` or `exec` in the foreign script cannot skip
 * it; the foreign lines are left byte for byte. `existing` undefined or blank gives a new script.
 */
export function spliceHookBlock(existing: string | undefined, block: string, path: string): string {
  if (existing === undefined || isEffectivelyEmpty(existing)) return `#!/bin/sh\n${block}`;
  const lines = existing.split('\n');
  const blockLines = block.split('\n').slice(0, -1);
  const span = findBlock(lines, path);
  if (span) {
    lines.splice(span.begin, span.end - span.begin + 1, ...blockLines);
    return lines.join('\n');
  }
  if (lines[0]?.startsWith('#!')) {
    if (lines.length === 1) lines.push('');
    lines.splice(1, 0, ...blockLines);
  } else {
    lines.splice(0, 0, ...blockLines);
  }
  return lines.join('\n');
}

/** `text` without the travsr block, or `undefined` when it has none. */
export function removeHookBlock(text: string, path: string): string | undefined {
  const lines = text.split('\n');
  const span = findBlock(lines, path);
  if (!span) return undefined;
  lines.splice(span.begin, span.end - span.begin + 1);
  return lines.join('\n');
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
