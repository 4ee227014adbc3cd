// The command line and environment lang-java gives scip-java, with and without the host's proxy,
// and where it finds the builds of a repository.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexerEnv, type ScipProjectRun } from '@travsr/sdk/scip';
import { buildToolOf, COPY_SKIP, COPY_SKIP_ANYWHERE, javaHomeOf, scipJava, scipJavaEnv } from '../src/scip-java-indexer.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-java-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const tools = { 'scip-java': '/opt/scip/bin/scip-java', java: '/nonexistent/bin/java' };
const runFor = (projectDir: string, proxy?: ScipProjectRun['proxy'], cacheDir?: string): ScipProjectRun => {
  const env = indexerEnv(tools, '/tmp/s', { PATH: '/usr/bin:/bin', HOME: '/tmp', JAVA_TOOL_OPTIONS: '-Xmx64g' });
  if (proxy) for (const k of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) env[k] = proxy.url;
  return {
    root: '/repo',
    projectDir,
    project: 'shop',
    tools,
    output: '/tmp/w/index.scip',
    scratchDir: '/tmp/s',
    env,
    ...(proxy ? { proxy } : {}),
    ...(cacheDir !== undefined ? { cacheDir } : {}),
  };
};

describe('scipJava invocation', () => {
  it('runs `scip-java index` with the build tool named and the index written where the analyzer reads it', () => {
    write(dir, { 'maven/pom.xml': '<project/>', 'gradle/build.gradle.kts': '', 'both/pom.xml': '<project/>', 'both/build.gradle': '' });
    const inv = scipJava.invocation(runFor(join(dir, 'maven')));
    expect(inv.args).toEqual(['index', '--build-tool', 'Maven', '--output', '/tmp/w/index.scip']);
    expect(inv.command).toBeUndefined();
    expect(inv.cwd).toBeUndefined();
    expect(scipJava.invocation(runFor(join(dir, 'gradle'))).args).toEqual([
      'index',
      '--build-tool',
      'Gradle',
      '--output',
      '/tmp/w/index.scip',
    ]);
    // Without --build-tool scip-java refuses a directory with both; Maven first, as its own auto mode.
    expect(buildToolOf(join(dir, 'both'))).toBe('Maven');
  });

  it('without a proxy: no JVM proxy options (the user’s JAVA_TOOL_OPTIONS is not passed either), caches in the scratch directory', () => {
    const env = scipJava.invocation(runFor('/p')).env!;
    expect(env['JAVA_TOOL_OPTIONS']).toBeUndefined();
    expect(env['HTTPS_PROXY']).toBeUndefined();
    expect(env).toMatchObject({
      PATH: '/opt/scip/bin:/nonexistent/bin:/usr/bin:/bin',
      HOME: '/tmp',
      GRADLE_USER_HOME: '/tmp/s/jvm/gradle',
      MAVEN_USER_HOME: '/tmp/s/jvm/m2',
      MAVEN_OPTS: '-Dmaven.repo.local=/tmp/s/jvm/m2/repository',
      COURSIER_CACHE: '/tmp/s/jvm/coursier',
      TERM: 'dumb',
    });
    expect(env['JAVA_HOME']).toBeUndefined();
  });

  it('with the host’s proxy: every JVM gets it as system properties, and the caches go to the plugin’s cache directory', () => {
    const proxy = { host: '127.0.0.1', port: 41234, url: 'http://127.0.0.1:41234' };
    const env = scipJava.invocation(runFor('/p', proxy, '/cache/lang-java')).env!;
    // The SDK's jvmProxyOptions: loopback goes through the proxy too (no JVM default nonProxyHosts).
    expect(env['JAVA_TOOL_OPTIONS']).toBe(
      '-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=41234 -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=41234 -Dhttp.nonProxyHosts=',
    );
    expect(env['HTTPS_PROXY']).toBe('http://127.0.0.1:41234');
    expect(env).toMatchObject({
      GRADLE_USER_HOME: '/cache/lang-java/jvm/gradle',
      MAVEN_OPTS: '-Dmaven.repo.local=/cache/lang-java/jvm/m2/repository',
    });
    // A path with a space would be split by MAVEN_OPTS: the scratch directory then.
    expect(scipJavaEnv(runFor('/p', undefined, '/Users/a/Library/Application Support/travsr'))['GRADLE_USER_HOME']).toBe(
      '/tmp/s/jvm/gradle',
    );
    // The cache directory without a proxy (the standard tier: nothing to download, caches still kept).
    expect(scipJavaEnv(runFor('/p', undefined, '/cache/lang-java'))).toMatchObject({ GRADLE_USER_HOME: '/cache/lang-java/jvm/gradle' });
    expect(scipJavaEnv(runFor('/p', undefined, '/cache/lang-java'))['JAVA_TOOL_OPTIONS']).toBeUndefined();
  });

  it('sets JAVA_HOME to the JDK the java found belongs to', () => {
    write(dir, { 'jdk-21/release': 'JAVA_VERSION="21"\n', 'jdk-21/bin/java': '', 'jre/bin/java': '' });
    mkdirSync(join(dir, 'usr-bin'), { recursive: true });
    symlinkSync(join(dir, 'jdk-21', 'bin', 'java'), join(dir, 'usr-bin', 'java'));
    expect(javaHomeOf(join(dir, 'usr-bin', 'java'))).toBe(join(dir, 'jdk-21'));
    expect(javaHomeOf(join(dir, 'jre', 'bin', 'java'))).toBeUndefined();
    const env = scipJavaEnv({ ...runFor('/p'), tools: { ...tools, java: join(dir, 'usr-bin', 'java') } });
    expect(env['JAVA_HOME']).toBe(join(dir, 'jdk-21'));
  });
});

describe('scipJava projects', () => {
  it('indexes the outermost Maven and Gradle builds: a reactor or multi-project build indexes its modules', async () => {
    const repo = join(dir, 'repo');
    write(repo, {
      'java/pom.xml': '<project/>',
      'java/core/pom.xml': '<project/>',
      'java/core/src/main/java/A.java': 'class A {}',
      'tools/settings.gradle.kts': '',
      'tools/app/build.gradle.kts': '',
      'legacy/build.gradle': '',
      'scripts/Gen.java': 'class Gen {}',
      'java/target/classes/pom.xml': '<project/>',
    });
    expect(await scipJava.projects!(repo)).toEqual(['java', 'legacy', 'tools']);
    expect(await scipJava.projects!(join(dir, 'maven'))).toEqual(['']);
  });

  it('has nothing to index without a build, and says so', async () => {
    write(dir, { 'loose/Main.java': 'class Main {}' });
    expect(await scipJava.projects!(join(dir, 'loose'))).toEqual([]);
    expect(scipJava.noProjects).toMatch(/no pom.xml, build.gradle/);
  });

  it('runs on a copy without its build output (at the top only) and build tool caches (anywhere)', () => {
    expect(scipJava.copyProject).toEqual({ skip: COPY_SKIP, skipAnywhere: COPY_SKIP_ANYWHERE });
    expect(COPY_SKIP).toEqual(expect.arrayContaining(['target', 'build', 'out']));
    // A source package may be named build or target: only names no package can have go at any depth.
    expect(COPY_SKIP_ANYWHERE).toEqual(['.gradle', '.kotlin']);
    expect(scipJava.graph).toEqual({ unspecifiedEncoding: 'utf16' });
  });
});
