// The command line and environment lang-csharp gives scip-dotnet, with and without the host's
// proxy and cache, and where it finds the solutions and projects of a repository.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexerEnv, type ScipProjectRun } from '@travsr/sdk/scip';
import { dotnetRootOf, nugetCachesDir, projectFilesIn, RESTORE_TIMEOUT_MS, scipDotnet, scipDotnetEnv } from '../src/scip-dotnet-indexer.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-dotnet-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const tools = { 'scip-dotnet': '/opt/tools/scip-dotnet', dotnet: '/nonexistent/dotnet/dotnet' };
const runFor = (projectDir: string, extra: Partial<ScipProjectRun> = {}): ScipProjectRun => {
  const env = indexerEnv(tools, '/tmp/s', { PATH: '/usr/bin:/bin', HOME: '/tmp', DOTNET_ROOT: '/home/u/.dotnet' });
  if (extra.proxy) for (const k of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) env[k] = extra.proxy.url;
  return { root: '/repo', projectDir, project: 'shop', tools, output: '/tmp/w/index.scip', scratchDir: '/tmp/s', env, ...extra };
};

describe('scipDotnet invocation', () => {
  it('runs `scip-dotnet index` on the solutions of the directory, else its C# projects, writing the index where the analyzer reads it', () => {
    write(dir, {
      'sln/Shop.sln': '',
      'sln/Shop.csproj': '<Project/>',
      'sln/Tools.sln.bak': '',
      'proj/Shop.csproj': '<Project/>',
      'proj/Shop.Tests.csproj': '<Project/>',
      'proj/Legacy.vbproj': '<Project/>',
    });
    const inv = scipDotnet.invocation(runFor(join(dir, 'sln')));
    expect(inv.args).toEqual(['index', 'Shop.sln', '--output', '/tmp/w/index.scip', '--dotnet-restore-timeout', '1200000']);
    expect(inv.command).toBeUndefined();
    expect(inv.cwd).toBeUndefined();
    expect(projectFilesIn(join(dir, 'proj'))).toEqual(['Shop.Tests.csproj', 'Shop.csproj']);
    expect(projectFilesIn(join(dir, 'missing'))).toEqual([]);
    expect(RESTORE_TIMEOUT_MS).toBe(1_200_000);
  });

  it('without a proxy or cache: no first-run experience or telemetry, the CLI home and NuGet caches in the scratch directory', () => {
    const env = scipDotnet.invocation(runFor('/p')).env!;
    expect(env['HTTPS_PROXY']).toBeUndefined();
    expect(env).toMatchObject({
      PATH: '/opt/tools:/nonexistent/dotnet:/usr/bin:/bin',
      HOME: '/tmp',
      DOTNET_CLI_TELEMETRY_OPTOUT: '1',
      DOTNET_NOLOGO: '1',
      DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
      DOTNET_CLI_HOME: '/tmp/s/dotnet-home',
      NUGET_PACKAGES: '/tmp/s/nuget/packages',
      NUGET_HTTP_CACHE_PATH: '/tmp/s/nuget/http-cache',
      NUGET_CERT_REVOCATION_MODE: 'offline',
      MSBUILDDISABLENODEREUSE: '1',
    });
    // Not the user's: the plugin's environment holds nothing but what indexerEnv passes on.
    expect(env['DOTNET_ROOT']).toBeUndefined();
  });

  it('with the host’s proxy and cache: HTTPS_PROXY for NuGet, the packages kept in the plugin’s cache', () => {
    const proxy = { host: '127.0.0.1', port: 41234, url: 'http://127.0.0.1:41234' };
    const env = scipDotnet.invocation(runFor('/p', { proxy, cacheDir: '/cache/lang-csharp' })).env!;
    expect(env).toMatchObject({
      HTTPS_PROXY: 'http://127.0.0.1:41234',
      HTTP_PROXY: 'http://127.0.0.1:41234',
      NUGET_PACKAGES: '/cache/lang-csharp/nuget/packages',
      NUGET_HTTP_CACHE_PATH: '/cache/lang-csharp/nuget/http-cache',
      // The CLI's first-run state stays per run.
      DOTNET_CLI_HOME: '/tmp/s/dotnet-home',
    });
    expect(nugetCachesDir({ scratchDir: '/tmp/s', cacheDir: '' })).toBe('/tmp/s/nuget');
  });

  it('sets DOTNET_ROOT to the .NET installation the dotnet found belongs to (for the scip-dotnet apphost)', () => {
    write(dir, {
      'dotnet-8/dotnet': '',
      'dotnet-8/sdk/8.0.404/dotnet.dll': '',
      'dotnet-8/shared/Microsoft.NETCore.App/8.0.11/x': '',
      'lone/dotnet': '',
    });
    mkdirSync(join(dir, 'usr-bin'), { recursive: true });
    symlinkSync(join(dir, 'dotnet-8', 'dotnet'), join(dir, 'usr-bin', 'dotnet'));
    expect(dotnetRootOf(join(dir, 'usr-bin', 'dotnet'))).toBe(join(dir, 'dotnet-8'));
    expect(dotnetRootOf(join(dir, 'lone', 'dotnet'))).toBeUndefined();
    expect(dotnetRootOf(undefined)).toBeUndefined();
    const env = scipDotnetEnv({ ...runFor('/p'), tools: { ...tools, dotnet: join(dir, 'usr-bin', 'dotnet') } });
    expect(env['DOTNET_ROOT']).toBe(join(dir, 'dotnet-8'));
  });
});

describe('scipDotnet projects', () => {
  it('indexes the outermost directories with a solution or a project: a solution indexes the projects below it', async () => {
    const repo = join(dir, 'repo');
    write(repo, {
      'csharp/Shop.sln': '',
      'csharp/src/Shop/Shop.csproj': '<Project/>',
      'csharp/src/Shop/obj/Shop.csproj.nuget.g.props': '',
      'tools/Gen/Gen.csproj': '<Project/>',
      'tools/Gen/bin/Debug/net8.0/Gen.csproj': '<Project/>',
      'scripts/build.csx': '',
      'packages/Old.1.0/Old.csproj': '<Project/>',
    });
    expect(await scipDotnet.projects!(repo)).toEqual(['csharp', 'tools/Gen']);
  });

  it('has nothing to index without a solution or project, and says so', async () => {
    write(dir, { 'loose/Program.cs': 'class P {}' });
    expect(await scipDotnet.projects!(join(dir, 'loose'))).toEqual([]);
    expect(scipDotnet.noProjects).toMatch(/no \.sln or \.csproj/);
  });

  it('runs on a copy without bin/ and obj/ at any depth, and reads UTF-16 columns', () => {
    expect(scipDotnet.copyProject).toEqual({ skip: [], skipAnywhere: ['bin', 'obj', '.vs'] });
    expect(scipDotnet.graph).toEqual({ unspecifiedEncoding: 'utf16' });
    expect(scipDotnet.tools).toEqual(['scip-dotnet', 'dotnet']);
  });
});
