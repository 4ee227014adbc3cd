import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConnectionError } from '@travsr/protocol/node';
import {
  FRAME_HEADER_BYTES,
  MANIFEST_FILE,
  parseManifest,
  PROTOCOL_VERSIONS,
  WireErrorCode,
  type AnalyzeFile,
  type AnalyzeResult,
  type GraphFileParams,
  type InitializeResult,
  type PluginManifest,
} from '@travsr/protocol';
import { listFixtureFiles, languageForPath } from './fixtures.js';
import { launchUnsandboxed, type Launcher } from './launch.js';
import { PluginSession, StepFailure, type SessionTarget } from './session.js';

/**
 * Options of {@link runConformance}.
 *
 * @example
 * ```ts
 * await runConformance({ pluginDir: 'plugins/lang-go', fixturesDir: 'test/fixtures/go', timeoutMs: 20_000 });
 * ```
 */
export interface ConformanceOptions {
  /** The plugin directory (holding travsr-plugin.json and the built entrypoint). */
  pluginDir: string;
  /** How to start the plugin; default {@link launchUnsandboxed}. The host passes a sandboxed launcher. */
  launch?: Launcher;
  /** Sources to analyze; default `<pluginDir>/snapshots/input`. Files whose extension is in the manifest are used. */
  fixturesDir?: string;
  /** Limit for each step (start-up, one request, an exit). Default 10 000 ms. */
  timeoutMs?: number;
}

/**
 * The outcome of one check.
 *
 * @example
 * ```ts
 * const failed = report.checks.filter((c: ConformanceCheck) => !c.ok).map((c) => c.name);
 * ```
 */
export interface ConformanceCheck {
  name: string;
  ok: boolean;
  /** What was observed; on failure, what went wrong, with the plugin's stderr. */
  detail: string;
  durationMs: number;
}

/**
 * The outcome of a conformance run.
 *
 * @example
 * ```ts
 * const report: ConformanceReport = await runConformance({ pluginDir });
 * process.exitCode = report.ok ? 0 : 1;
 * ```
 */
export interface ConformanceReport {
  plugin: { dir: string; id?: string; version?: string };
  checks: ConformanceCheck[];
  /** True when every check passed. */
  ok: boolean;
}

const CORPUS = 'travsr.dev/conformance';
const CANCEL_TARGET_FILES = 2000;

interface Ctx extends SessionTarget {
  timeoutMs: number;
  fixtures: AnalyzeFile[];
  fixturesDir: string;
  phase: 'A' | 'B';
  /** The session the handshake opened, which the checks after it go on with while they pass. */
  initialized?: PluginSession | undefined;
}

/**
 * Runs the protocol conformance checks against a plugin directory: manifest, refusal without
 * the cookie, handshake, ping, request before hello, initialize, analyze of the fixtures,
 * unknown method, invalid params, a missing file, cancellation, an oversized frame, stdin
 * closing, shutdown. One session goes through the steps a host takes — handshake, ping,
 * initialize, then the requests of an initialized plugin (analyze, unknown method, invalid
 * params, missing file, cancel) — as a host sends one session many requests, so each check also
 * checks that the plugin still works after the one before; a failed check stops that session and
 * the next starts afresh (as far as it needs: hello, initialize), so one failure does not fail
 * the checks after it. The refusal without the cookie, a request before hello and an oversized
 * frame each need a session of their own. Stdin
 * closing and shutdown end a fresh session: a session that has worked may take longer to exit
 * (V8 finishing its optimizing compiles of a large grammar), which is not the plugin's doing.
 * A check that fails says what was expected, what happened, and what the plugin wrote on stderr.
 *
 * @example
 * ```ts
 * import { runConformance, formatReport } from '@travsr/sdk/testing';
 * const report = await runConformance({ pluginDir: 'plugins/example-lua' });
 * if (!report.ok) throw new Error(formatReport(report));
 * ```
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const pluginDir = resolve(options.pluginDir);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const report: ConformanceReport = { plugin: { dir: pluginDir }, checks: [], ok: false };

  let manifest: PluginManifest | undefined;
  await record(report, 'manifest', () => {
    const file = join(pluginDir, MANIFEST_FILE);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new StepFailure(`cannot read ${file}: ${(e as Error).message}`);
    }
    try {
      manifest = parseManifest(text, file);
    } catch (e) {
      throw new StepFailure((e as Error).message);
    }
    const entry = join(pluginDir, manifest.entrypoint.path);
    if (!existsSync(entry))
      throw new StepFailure(`the entrypoint ${manifest.entrypoint.path} does not exist in ${pluginDir}; build the plugin first`);
    const offered = manifest.protocolVersions.filter((v) => (PROTOCOL_VERSIONS as readonly string[]).includes(v));
    if (offered.length === 0)
      throw new StepFailure(
        `the manifest's protocolVersions (${manifest.protocolVersions.join(', ')}) share none with this SDK (${PROTOCOL_VERSIONS.join(', ')})`,
      );
    return `${manifest.id}@${manifest.version}, ${manifest.entrypoint.runtime} ${manifest.entrypoint.path}, languages ${manifest.languages.join(', ')}`;
  });
  if (!manifest) return finish(report);
  report.plugin = { dir: pluginDir, id: manifest.id, version: manifest.version };

  const fixturesDir = resolve(options.fixturesDir ?? join(pluginDir, 'snapshots', 'input'));
  let repoRoot = fixturesDir;
  let scratch: string | undefined;
  if (!existsSync(fixturesDir)) {
    scratch = mkdtempSync(join(tmpdir(), 'travsr-conformance-'));
    repoRoot = scratch;
  }
  const m = manifest;
  const ctx: Ctx = {
    pluginDir,
    manifest: m,
    repoRoot,
    launch: options.launch ?? launchUnsandboxed,
    timeoutMs,
    fixturesDir,
    fixtures: existsSync(fixturesDir)
      ? listFixtureFiles(fixturesDir, m.extensions).map((path) => ({ path, language: languageForPath(path, m.languages) }))
      : [],
    phase: m.phases?.includes('A') === false ? 'B' : 'A',
  };

  try {
    await record(report, 'refuses to run without the host cookie', () => checkNoCookie(ctx));
    await record(report, 'handshake', () => checkHandshake(ctx));
    await record(report, 'ping', () => checkPing(ctx));
    await record(report, 'request before hello', () => checkBeforeHello(ctx));
    await record(report, 'initialize', () => checkInitialize(ctx));
    await record(report, 'analyze fixtures', () => checkAnalyze(ctx));
    await record(report, 'unknown method', () => checkUnknownMethod(ctx));
    await record(report, 'invalid params', () => checkInvalidParams(ctx));
    await record(report, 'missing file', () => checkMissingFile(ctx));
    await record(report, 'cancel', () => checkCancel(ctx));
    await record(report, 'oversized frame from the host', () => checkOversizedFrame(ctx));
    await record(report, 'exits when stdin closes', () => checkStdinClosed(ctx));
    await record(report, 'shutdown', () => checkShutdown(ctx));
  } finally {
    await ctx.initialized?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return finish(report);
}

function finish(report: ConformanceReport): ConformanceReport {
  report.ok = report.checks.length > 0 && report.checks.every((c) => c.ok);
  return report;
}

async function record(report: ConformanceReport, name: string, fn: () => string | Promise<string>): Promise<void> {
  const start = performance.now();
  let ok = true;
  let detail: string;
  try {
    detail = await fn();
  } catch (e) {
    ok = false;
    detail = e instanceof StepFailure ? e.message : `the check itself failed: ${(e as Error).stack ?? String(e)}`;
  }
  report.checks.push({ name, ok, detail, durationMs: Math.round(performance.now() - start) });
}

/**
 * Which process a check runs on: `fresh`, its own, stopped after it; `shared`, the session the
 * checks before it left running ({@link Ctx.initialized}; one is started when there is none);
 * `opens`, its own, which becomes the shared one when the check passes. A shared session that a
 * check failed, or that ended, is stopped and not shared again. `setup` is how far the session
 * is brought before the check (a shared one may be there already).
 */
type SessionUse = 'fresh' | 'shared' | 'opens';

/** Runs `fn` on a connected plugin process set up as `setup` says; failures carry stderr. */
async function withPlugin(
  ctx: Ctx,
  setup: 'none' | 'hello' | 'initialize',
  fn: (s: PluginSession) => Promise<string>,
  use: SessionUse = 'fresh',
): Promise<string> {
  const reuse = use === 'shared' && ctx.initialized !== undefined && ctx.initialized.exit === undefined;
  if (use !== 'fresh' && !reuse) {
    await ctx.initialized?.stop();
    ctx.initialized = undefined;
  }
  const s = reuse ? ctx.initialized! : await PluginSession.start(ctx);
  if (use !== 'fresh') ctx.initialized = s;
  let passed = false;
  try {
    if (setup !== 'none' && s.stage === 'started') {
      try {
        await s.hello(ctx.timeoutMs);
      } catch (e) {
        throw new StepFailure(`setup: hello failed: ${s.describe(e)}`);
      }
    }
    if (setup === 'initialize' && s.stage === 'hello') {
      try {
        await s.initialize(ctx.timeoutMs, CORPUS);
      } catch (e) {
        throw new StepFailure(`setup: initialize failed: ${s.describe(e)}`);
      }
    }
    const detail = await fn(s);
    passed = true;
    return detail;
  } catch (e) {
    await s.settleStderr();
    const message = e instanceof StepFailure ? e.message : s.describe(e);
    throw new StepFailure(withStderr(message, s.stderr));
  } finally {
    if (ctx.initialized !== s || !passed || s.exit !== undefined) {
      if (ctx.initialized === s) ctx.initialized = undefined;
      await s.stop();
    }
  }
}

function withStderr(message: string, stderr: string): string {
  const text = stderr.trim();
  if (!text) return `${message}\n(the plugin wrote nothing on stderr)`;
  const lines = text.split('\n');
  const tail = lines.length > 30 ? ['…', ...lines.slice(-30)] : lines;
  return `${message}\nplugin stderr:\n${tail.map((l) => `  | ${l}`).join('\n')}`;
}

function wireCode(e: unknown): number | undefined {
  return e instanceof ConnectionError && e.code === 'REMOTE_ERROR' ? e.wire?.code : undefined;
}

async function pingAlive(s: PluginSession, ctx: Ctx, after: string): Promise<void> {
  const nonce = Math.floor(Math.random() * 1e9);
  try {
    const r = await s.request('ping', { nonce }, ctx.timeoutMs);
    if (r.nonce !== nonce) throw new StepFailure(`after ${after}, ping answered nonce ${String(r.nonce)} instead of ${nonce}`);
  } catch (e) {
    if (e instanceof StepFailure) throw e;
    throw new StepFailure(`after ${after}, the plugin no longer answers ping: ${s.describe(e)}`);
  }
}

async function checkNoCookie(ctx: Ctx): Promise<string> {
  const s = await PluginSession.start(ctx, { cookie: false, connect: false });
  try {
    const exit = await s.waitExit(ctx.timeoutMs);
    await s.settleStderr();
    if (!exit)
      throw new StepFailure(
        withStderr(
          `started without TRAVSR_PLUGIN_COOKIE, the plugin was still running after ${ctx.timeoutMs} ms; it must print one line and exit`,
          s.stderr,
        ),
      );
    if (exit.error) throw new StepFailure(exit.error);
    const lines = s.stderr
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');
    const problems: string[] = [];
    if (exit.code === 0) problems.push('it exited with code 0 (expected non-zero)');
    if (exit.signal) problems.push(`it was killed by ${exit.signal}`);
    if (s.rawStdoutBytes > 0) problems.push(`it wrote ${s.rawStdoutBytes} byte(s) on stdout (expected none: stdout is for frames)`);
    if (lines.length !== 1) problems.push(`it wrote ${lines.length} line(s) on stderr (expected exactly one explaining what it is)`);
    if (problems.length > 0) throw new StepFailure(withStderr(`started without the cookie, ${problems.join('; ')}`, s.stderr));
    return `exit code ${exit.code}: "${lines[0]}"`;
  } finally {
    await s.stop();
  }
}

async function checkHandshake(ctx: Ctx): Promise<string> {
  return withPlugin(
    ctx,
    'none',
    async (s) => {
      const start = performance.now();
      let hello;
      try {
        hello = await s.hello(ctx.timeoutMs);
      } catch (e) {
        throw new StepFailure(`hello failed: ${s.describe(e)}`);
      }
      const ms = Math.round(performance.now() - start);
      const m = ctx.manifest;
      const problems: string[] = [];
      if (hello.plugin.id !== m.id) problems.push(`plugin id "${hello.plugin.id}" differs from the manifest's "${m.id}"`);
      if (hello.plugin.version !== m.version)
        problems.push(`plugin version "${hello.plugin.version}" differs from the manifest's "${m.version}"`);
      if (!(PROTOCOL_VERSIONS as readonly string[]).includes(hello.protocolVersion))
        problems.push(`protocol version "${hello.protocolVersion}" was not offered (offered: ${PROTOCOL_VERSIONS.join(', ')})`);
      if (!m.protocolVersions.includes(hello.protocolVersion))
        problems.push(
          `protocol version "${hello.protocolVersion}" is not in the manifest's protocolVersions (${m.protocolVersions.join(', ')})`,
        );
      const declared = m.phases ?? ['A'];
      const extra = hello.capabilities.phases.filter((p) => !declared.includes(p));
      if (extra.length > 0)
        problems.push(`capabilities.phases has ${extra.join(', ')}, which the manifest does not declare (${declared.join(', ')})`);
      if (problems.length > 0) throw new StepFailure(`hello answered, but ${problems.join('; ')}`);
      return `protocol ${hello.protocolVersion}, ${hello.sdk.name}@${hello.sdk.version}, max frame ${hello.maxFrameBytes} bytes, answered in ${ms} ms`;
    },
    'opens',
  );
}

async function checkPing(ctx: Ctx): Promise<string> {
  return withPlugin(
    ctx,
    'hello',
    async (s) => {
      await pingAlive(s, ctx, 'hello');
      const start = performance.now();
      await pingAlive(s, ctx, 'a first ping');
      return `nonce echoed; round trip ${(performance.now() - start).toFixed(1)} ms`;
    },
    'shared',
  );
}

async function checkBeforeHello(ctx: Ctx): Promise<string> {
  return withPlugin(ctx, 'none', async (s) => {
    try {
      await s.request('ping', { nonce: 1 }, ctx.timeoutMs);
    } catch (e) {
      const code = wireCode(e);
      if (code === WireErrorCode.NotInitialized) {
        await s.hello(ctx.timeoutMs).catch((err: unknown) => {
          throw new StepFailure(`after refusing a request before hello, hello failed: ${s.describe(err)}`);
        });
        return `answered NotInitialized (${code}) and accepted hello afterwards`;
      }
      throw new StepFailure(
        `a ping before hello should be answered with NotInitialized (${WireErrorCode.NotInitialized}); got: ${s.describe(e)}`,
      );
    }
    throw new StepFailure(
      `a ping before hello was answered normally; it must be refused with NotInitialized (${WireErrorCode.NotInitialized})`,
    );
  });
}

async function checkInitialize(ctx: Ctx): Promise<string> {
  // Goes on with the session of the handshake; the checks after it go on with the one it initializes.
  return withPlugin(
    ctx,
    'hello',
    async (s) => {
      let initialize: InitializeResult;
      try {
        initialize = await s.initialize(ctx.timeoutMs, CORPUS);
      } catch (e) {
        throw new StepFailure(`initialize failed: ${s.describe(e)}`);
      }
      const unknown = initialize.languages.filter((l) => !ctx.manifest.languages.includes(l));
      if (unknown.length > 0)
        throw new StepFailure(
          `initialize answered languages ${unknown.join(', ')}, which the manifest does not list (${ctx.manifest.languages.join(', ')})`,
        );
      return `languages: ${initialize.languages.join(', ') || '(none declared)'}`;
    },
    'shared',
  );
}

function requireFixtures(ctx: Ctx): void {
  if (ctx.fixtures.length === 0) {
    throw new StepFailure(
      `no fixture files with the manifest's extensions (${ctx.manifest.extensions.join(', ')}) in ${ctx.fixturesDir}; add a few realistic sources there (they are the snapshot inputs too) or pass fixturesDir`,
    );
  }
}

function filesOf(s: PluginSession, requestId: number | string): GraphFileParams[] {
  return s.graphFiles.filter((g) => g.requestId === requestId);
}

async function checkAnalyze(ctx: Ctx): Promise<string> {
  requireFixtures(ctx);
  return withPlugin(
    ctx,
    'initialize',
    async (s) => {
      const pending = s.request('analyze', { phase: ctx.phase, files: ctx.fixtures }, ctx.timeoutMs);
      const requestId = s.lastRequestId!;
      let result: AnalyzeResult;
      try {
        result = await pending;
      } catch (e) {
        throw new StepFailure(`analyze of ${ctx.fixtures.length} fixture file(s) failed: ${s.describe(e)}`);
      }
      const stray = s.graphFiles.filter((g) => g.requestId !== requestId);
      const mine = filesOf(s, requestId);
      const problems: string[] = [];
      if (stray.length > 0)
        problems.push(
          `${stray.length} graph/file notification(s) named request id ${JSON.stringify(stray[0]?.requestId)} instead of ${requestId}`,
        );
      for (const f of ctx.fixtures) {
        const got = mine.filter((g) => g.path === f.path);
        if (got.length !== 1) {
          problems.push(`${f.path}: ${got.length} graph/file notifications (expected exactly one)`);
          continue;
        }
        const g = got[0]!;
        if (g.language !== f.language) problems.push(`${f.path}: language "${g.language}" (requested "${f.language}")`);
        if (g.phase !== ctx.phase) problems.push(`${f.path}: phase ${g.phase} (requested ${ctx.phase})`);
        if (g.status !== 'ok')
          problems.push(`${f.path}: status ${g.status}: ${g.diagnostics.map((d) => d.message).join('; ') || 'no diagnostic'}`);
        const badPath = g.nodes.find((n) => n.vname.path !== f.path);
        if (badPath) problems.push(`${f.path}: node "${badPath.name}" has VName path "${badPath.vname.path}" (must be the file's path)`);
        const badCorpus = g.nodes.find((n) => n.vname.corpus !== CORPUS);
        if (badCorpus)
          problems.push(`${f.path}: node "${badCorpus.name}" has corpus "${badCorpus.vname.corpus}" (initialize said "${CORPUS}")`);
      }
      const unrequested = mine.filter((g) => !ctx.fixtures.some((f) => f.path === g.path));
      if (unrequested.length > 0) problems.push(`reported files that were not requested: ${unrequested.map((g) => g.path).join(', ')}`);
      const sum = {
        files: mine.length,
        failed: mine.filter((g) => g.status === 'failed').length,
        nodes: mine.reduce((n, g) => n + g.nodes.length, 0),
        edges: mine.reduce((n, g) => n + g.edges.length, 0),
      };
      for (const k of ['files', 'failed', 'nodes', 'edges'] as const) {
        if (result[k] !== sum[k]) problems.push(`the analyze result says ${k}=${result[k]} but the notifications add up to ${sum[k]}`);
      }
      if (problems.length > 0) throw new StepFailure(`analyze answered, but:\n- ${problems.slice(0, 20).join('\n- ')}`);
      const refs = mine.reduce((n, g) => n + (g.refs?.length ?? 0), 0);
      return `${result.files} file(s): ${result.nodes} nodes, ${result.edges} edges, ${refs} refs, ${s.progress.length} progress notification(s)`;
    },
    'shared',
  );
}

async function checkUnknownMethod(ctx: Ctx): Promise<string> {
  return withPlugin(
    ctx,
    'initialize',
    async (s) => {
      try {
        await s.request('conformance/noSuchMethod', {}, ctx.timeoutMs);
        throw new StepFailure('a request for an unknown method was answered with a result; expected MethodNotFound');
      } catch (e) {
        if (e instanceof StepFailure) throw e;
        if (wireCode(e) !== WireErrorCode.MethodNotFound)
          throw new StepFailure(
            `an unknown method should be answered with MethodNotFound (${WireErrorCode.MethodNotFound}); got: ${s.describe(e)}`,
          );
      }
      await pingAlive(s, ctx, 'an unknown method');
      return `answered MethodNotFound (${WireErrorCode.MethodNotFound}); still answers ping`;
    },
    'shared',
  );
}

async function checkInvalidParams(ctx: Ctx): Promise<string> {
  return withPlugin(
    ctx,
    'initialize',
    async (s) => {
      try {
        await s.request('analyze', { phase: 'A', files: [{ path: 42 }] }, ctx.timeoutMs);
        throw new StepFailure('analyze with invalid params was answered with a result; expected InvalidParams');
      } catch (e) {
        if (e instanceof StepFailure) throw e;
        if (wireCode(e) !== WireErrorCode.InvalidParams)
          throw new StepFailure(
            `analyze with invalid params should be answered with InvalidParams (${WireErrorCode.InvalidParams}); got: ${s.describe(e)}`,
          );
      }
      await pingAlive(s, ctx, 'invalid params');
      return `answered InvalidParams (${WireErrorCode.InvalidParams}); still answers ping`;
    },
    'shared',
  );
}

async function checkMissingFile(ctx: Ctx): Promise<string> {
  const ext = ctx.manifest.extensions.find((e) => e.startsWith('.')) ?? '';
  const missing: AnalyzeFile = { path: `travsr-conformance/does-not-exist${ext}`, language: ctx.manifest.languages[0] ?? 'text' };
  const real = ctx.fixtures.slice(0, 2);
  const files = real.length > 0 ? [real[0]!, missing, ...real.slice(1)] : [missing];
  return withPlugin(
    ctx,
    'initialize',
    async (s) => {
      const pending = s.request('analyze', { phase: ctx.phase, files }, ctx.timeoutMs);
      const requestId = s.lastRequestId!;
      let result: AnalyzeResult;
      try {
        result = await pending;
      } catch (e) {
        throw new StepFailure(`analyze with a nonexistent file must still succeed (the file is reported failed); got: ${s.describe(e)}`);
      }
      const mine = filesOf(s, requestId);
      const problems: string[] = [];
      const m = mine.filter((g) => g.path === missing.path);
      if (m.length !== 1) problems.push(`${missing.path}: ${m.length} graph/file notifications (expected one)`);
      else if (m[0]!.status !== 'failed') problems.push(`${missing.path}: status ${m[0]!.status} (expected failed)`);
      else if (m[0]!.diagnostics.length === 0) problems.push(`${missing.path}: reported failed without a diagnostic saying why`);
      for (const f of real) {
        const g = mine.filter((x) => x.path === f.path);
        if (g.length !== 1 || g[0]!.status !== 'ok')
          problems.push(
            `${f.path}: expected one ok notification next to the missing file, got ${g.map((x) => x.status).join(', ') || 'none'}`,
          );
      }
      if (result.failed !== 1) problems.push(`the result counts failed=${result.failed} (expected 1)`);
      if (problems.length > 0) throw new StepFailure(problems.join('; '));
      await pingAlive(s, ctx, 'a missing file');
      return `reported failed: ${m[0]!.diagnostics[0]!.message}`;
    },
    'shared',
  );
}

async function checkCancel(ctx: Ctx): Promise<string> {
  requireFixtures(ctx);
  const repeat = Math.max(1, Math.ceil(CANCEL_TARGET_FILES / ctx.fixtures.length));
  const files: AnalyzeFile[] = [];
  for (let i = 0; i < repeat; i++) files.push(...ctx.fixtures);
  return withPlugin(
    ctx,
    'initialize',
    async (s) => {
      const abort = new AbortController();
      const pending = s.request('analyze', { phase: ctx.phase, files }, ctx.timeoutMs, abort.signal);
      const requestId = s.lastRequestId!;
      let outcome: string | undefined;
      const settled = pending.then(
        (r) => (outcome = `completed (${r.files} files) before the cancel took effect`),
        (e: unknown) => (outcome = wireCode(e) === WireErrorCode.Cancelled ? 'answered Cancelled' : `ERROR ${s.describe(e)}`),
      );
      const firstFile = Date.now() + Math.min(ctx.timeoutMs, 5000);
      while (filesOf(s, requestId).length === 0 && outcome === undefined && Date.now() < firstFile) await delay(2);
      const before = filesOf(s, requestId).length;
      abort.abort();
      await settled;
      if (outcome === undefined || outcome.startsWith('ERROR'))
        throw new StepFailure(
          `after cancel, analyze should be answered with Cancelled (${WireErrorCode.Cancelled}) or its result; got: ${outcome?.slice(6) ?? 'nothing'}`,
        );
      const atAnswer = filesOf(s, requestId).length;
      await pingAlive(s, ctx, 'cancel');
      const late = filesOf(s, requestId).length - atAnswer;
      if (late > 0) throw new StepFailure(`${late} graph/file notification(s) for the cancelled request arrived after its answer`);
      return `${outcome} after ${before} of ${files.length} file(s) (${atAnswer} sent in all); still answers ping`;
    },
    'shared',
  );
}

async function checkOversizedFrame(ctx: Ctx): Promise<string> {
  return withPlugin(ctx, 'hello', async (s) => {
    const limit = s.maxFrameBytes;
    const header = Buffer.alloc(FRAME_HEADER_BYTES + 16);
    header.writeUInt32BE(limit + 1, 0);
    await s.conn!.writeRaw(header).catch(() => undefined);
    const exit = await s.waitExit(ctx.timeoutMs);
    if (!exit)
      throw new StepFailure(
        `after a frame header announcing ${limit + 1} bytes (limit ${limit}), the plugin was still running after ${ctx.timeoutMs} ms; it must end the session at once, before reading or allocating the body`,
      );
    return `exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`} on a ${limit + 1}-byte frame header (limit ${limit})`;
  });
}

async function checkStdinClosed(ctx: Ctx): Promise<string> {
  return withPlugin(ctx, 'initialize', async (s) => {
    s.process.stdin.end();
    const exit = await s.waitExit(ctx.timeoutMs);
    if (!exit)
      throw new StepFailure(
        `the plugin was still running ${ctx.timeoutMs} ms after the host closed its stdin; a plugin must exit when the host goes away`,
      );
    if (exit.code !== 0)
      throw new StepFailure(
        `after stdin closed, the plugin exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`} (expected 0)`,
      );
    return 'exited with code 0';
  });
}

async function checkShutdown(ctx: Ctx): Promise<string> {
  return withPlugin(ctx, 'initialize', async (s) => {
    try {
      await s.request('shutdown', {}, ctx.timeoutMs);
    } catch (e) {
      throw new StepFailure(`shutdown was not answered: ${s.describe(e)}`);
    }
    const exit = await s.waitExit(ctx.timeoutMs);
    if (!exit) throw new StepFailure(`the plugin answered shutdown but was still running ${ctx.timeoutMs} ms later`);
    if (exit.code !== 0)
      throw new StepFailure(
        `after shutdown the plugin exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`} (expected 0)`,
      );
    return 'answered and exited with code 0';
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Renders a conformance report for a terminal: one line per check, the details of
 * failures indented below, and a summary line.
 *
 * @example
 * ```ts
 * console.log(formatReport(await runConformance({ pluginDir })));
 * // ✓ handshake (41 ms) protocol 1, @travsr/sdk@0.1.0, …
 * ```
 */
export function formatReport(report: ConformanceReport): string {
  const who = report.plugin.id ? `${report.plugin.id}@${report.plugin.version ?? '?'}` : report.plugin.dir;
  const lines = [`Conformance of ${who} (${report.plugin.dir})`];
  for (const c of report.checks) {
    const [first, ...rest] = c.detail.split('\n');
    lines.push(`${c.ok ? '✓' : '✗'} ${c.name} (${c.durationMs} ms)${first ? ` — ${first}` : ''}`);
    for (const l of rest) lines.push(`    ${l}`);
  }
  const passed = report.checks.filter((c) => c.ok).length;
  lines.push(`${report.ok ? 'PASS' : 'FAIL'}: ${passed}/${report.checks.length} checks passed`);
  return lines.join('\n');
}
