// The command line and environment lang-scala gives scip-java (and through it sbt and coursier),
// with and without the host's proxy and cache, and where it finds the sbt builds of a repository.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexerEnv, type ScipProjectRun } from '@travsr/sdk/scip';
import { javaHomeOf, sbtCachesDir, sbtJvmOptions, scipJavaSbt, scipJavaSbtEnv } from '../src/scip-java-sbt-indexer.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-java-sbt-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const tools = { 'scip-java': '/opt/scip/bin/scip-java', java: '/nonexistent/bin/java', sbt: '/opt/sbt/bin/sbt' };
const runFor = (extra: Partial<ScipProjectRun> = {}): ScipProjectRun => {
  const env = indexerEnv(tools, '/tmp/s', { PATH: '/usr/bin:/bin', HOME: '/tmp', JAVA_TOOL_OPTIONS: '-Xmx64g' });
  if (extra.proxy) for (const k of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) env[k] = extra.proxy.url;
  return {
    root: '/repo',
    projectDir: '/tmp/w/project',
    project: 'scala',
    tools,
    output: '/tmp/w/index.scip',
    scratchDir: '/tmp/s',
    env,
    ...extra,
  };
};

describe('scipJavaSbt invocation', () => {
  it('runs `scip-java index` with the sbt build tool named and the index written where the analyzer reads it', () => {
    const inv = scipJavaSbt.invocation(runFor());
    expect(inv.args).toEqual(['index', '--build-tool=sbt', '--output', '/tmp/w/index.scip']);
    expect(inv.command).toBeUndefined();
    expect(inv.cwd).toBeUndefined();
    expect(scipJavaSbt.tools).toEqual(['scip-java', 'java', 'sbt']);
  });

  it('without a proxy or cache: sbt’s, Ivy’s, coursier’s directories and the JVM home in the scratch directory, no proxy properties', () => {
    const env = scipJavaSbt.invocation(runFor()).env!;
    expect(env['HTTPS_PROXY']).toBeUndefined();
    // The user's JAVA_TOOL_OPTIONS is not passed on (the plugin's environment holds nothing of theirs).
    expect(env['JAVA_TOOL_OPTIONS']).toBe(
      '-Duser.home=/tmp/s/sbt/home -Dsbt.global.base=/tmp/s/sbt/global -Dsbt.boot.directory=/tmp/s/sbt/boot -Dsbt.ivy.home=/tmp/s/sbt/ivy2 -Dsbt.server.autostart=false -Dsbt.ci=true -Dsbt.log.noformat=true',
    );
    expect(env).toMatchObject({
      PATH: '/opt/scip/bin:/nonexistent/bin:/opt/sbt/bin:/usr/bin:/bin',
      HOME: '/tmp',
      COURSIER_CACHE: '/tmp/s/sbt/coursier',
      TERM: 'dumb',
    });
    expect(env['JAVA_HOME']).toBeUndefined();
  });

  it('with the host’s proxy: every JVM gets it as system properties (JVMs ignore HTTPS_PROXY), and the caches go to the plugin’s cache', () => {
    const proxy = { host: '127.0.0.1', port: 41234, url: 'http://127.0.0.1:41234' };
    const env = scipJavaSbt.invocation(runFor({ proxy, cacheDir: '/cache/lang-scala' })).env!;
    expect(env['JAVA_TOOL_OPTIONS']).toBe(
      [
        '-Dhttp.proxyHost=127.0.0.1',
        '-Dhttp.proxyPort=41234',
        '-Dhttps.proxyHost=127.0.0.1',
        '-Dhttps.proxyPort=41234',
        '-Dhttp.nonProxyHosts=',
        '-Duser.home=/cache/lang-scala/sbt/home',
        '-Dsbt.global.base=/cache/lang-scala/sbt/global',
        '-Dsbt.boot.directory=/cache/lang-scala/sbt/boot',
        '-Dsbt.ivy.home=/cache/lang-scala/sbt/ivy2',
        '-Dsbt.server.autostart=false',
        '-Dsbt.ci=true',
        '-Dsbt.log.noformat=true',
      ].join(' '),
    );
    // The sbt script downloads a launcher with curl, which takes HTTPS_PROXY.
    expect(env['HTTPS_PROXY']).toBe('http://127.0.0.1:41234');
    expect(env['COURSIER_CACHE']).toBe('/cache/lang-scala/sbt/coursier');
    // JAVA_TOOL_OPTIONS splits at spaces: a cache path with one is not used.
    expect(sbtCachesDir({ scratchDir: '/tmp/s', cacheDir: '/Users/a/Library/Application Support/travsr' })).toBe('/tmp/s/sbt');
    expect(sbtJvmOptions({ scratchDir: '/tmp/s' })).not.toMatch(/proxy/);
  });

  it('sets JAVA_HOME to the JDK the java found belongs to', () => {
    write(dir, { 'jdk-21/release': 'JAVA_VERSION="21"\n', 'jdk-21/bin/java': '', 'jre/bin/java': '' });
    mkdirSync(join(dir, 'usr-bin'), { recursive: true });
    symlinkSync(join(dir, 'jdk-21', 'bin', 'java'), join(dir, 'usr-bin', 'java'));
    expect(javaHomeOf(join(dir, 'usr-bin', 'java'))).toBe(join(dir, 'jdk-21'));
    expect(javaHomeOf(join(dir, 'jre', 'bin', 'java'))).toBeUndefined();
    expect(javaHomeOf(undefined)).toBeUndefined();
    const env = scipJavaSbtEnv({ ...runFor(), tools: { ...tools, java: join(dir, 'usr-bin', 'java') } });
    expect(env['JAVA_HOME']).toBe(join(dir, 'jdk-21'));
  });
});

describe('scipJavaSbt projects', () => {
  it('indexes the outermost sbt builds: a multi-project build indexes its subprojects', async () => {
    const repo = join(dir, 'repo');
    write(repo, {
      'scala/build.sbt': '',
      'scala/project/build.properties': 'sbt.version=1.10.2\n',
      'scala/core/build.sbt': '',
      'scala/core/src/main/scala/A.scala': 'class A',
      'tools/gen/build.sbt': '',
      'scripts/Main.scala': 'object Main',
      'other/target/streams/build.sbt': '',
    });
    expect(await scipJavaSbt.projects!(repo)).toEqual(['scala', 'tools/gen']);
  });

  it('has nothing to index without a build.sbt, and says so', async () => {
    write(dir, { 'loose/Main.scala': 'object Main' });
    expect(await scipJavaSbt.projects!(join(dir, 'loose'))).toEqual([]);
    expect(scipJavaSbt.noProjects).toMatch(/no build\.sbt/);
  });

  it('runs on a copy without target/ and build-server state at any depth, and reads UTF-16 columns', () => {
    expect(scipJavaSbt.copyProject).toEqual({ skip: [], skipAnywhere: ['target', '.bsp', '.bloop', '.metals', '.idea'] });
    expect(scipJavaSbt.graph).toEqual({ unspecifiedEncoding: 'utf16' });
  });
});
