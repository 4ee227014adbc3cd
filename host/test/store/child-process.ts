import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
/** The bundle, per temporary directory: each test file has its own, removed after it (test/setup-env.ts). */
const bundled = new Map<string, Promise<string>>();

/**
 * Bundles children/store-child.ts (the real store code) into one CommonJS file; only the
 * native better-sqlite3 stays outside, found through NODE_PATH.
 */
function bundle(): Promise<string> {
  const tmp = tmpdir();
  const made = bundled.get(tmp);
  if (made) return made;
  const making = (async () => {
    const out = join(mkdtempSync(join(tmp, 'travsr-store-child-')), 'store-child.cjs');
    await build({
      entryPoints: [join(here, 'children', 'store-child.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['better-sqlite3'],
      logLevel: 'silent',
    });
    return out;
  })();
  bundled.set(tmp, making);
  return making;
}

const nodeModules = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), '..');

/** Starts the child in `mode`; stdout lines arrive through `lines`. */
export async function startChild(
  args: string[],
): Promise<{ child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string>; done: Promise<number | null> }> {
  const child = spawn(process.execPath, [await bundle(), ...args], { env: { ...process.env, NODE_PATH: nodeModules } });
  const queue: string[] = [];
  const waiters: ((v: IteratorResult<string>) => void)[] = [];
  let buf = '';
  let ended = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiters.shift();
      if (w) w({ value: line, done: false });
      else queue.push(line);
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      for (const w of waiters.splice(0)) w({ value: undefined, done: true });
      if (code !== 0 && stderr) console.error(stderr);
      resolve(code);
    }),
  );
  const lines: AsyncIterator<string> = {
    next: () =>
      new Promise((resolve) => {
        const line = queue.shift();
        if (line !== undefined) resolve({ value: line, done: false });
        else if (ended) resolve({ value: undefined, done: true });
        else waiters.push(resolve);
      }),
  };
  return { child, lines, done };
}

/** Runs the child to the end; its exit code (null when killed by a signal) and output. */
export async function runChild(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string[] }> {
  const { child, lines, done } = await startChild(args);
  child.stdin.end();
  const stdout: string[] = [];
  for (let r = await lines.next(); !r.done; r = await lines.next()) stdout.push(r.value);
  const code = await done;
  return { code, signal: child.signalCode, stdout };
}
