// The command line and environment lang-kotlin gives scip-java, with and without the host's
// proxy, and where it finds the Gradle builds of a repository.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexerEnv, type ScipProjectRun } from '@travsr/sdk/scip';
import { COPY_SKIP, COPY_SKIP_ANYWHERE, javaHomeOf, scipJavaKotlin, scipKotlinEnv } from '../src/scip-java-indexer.js';

const dir = mkdtempSync(join(tmpdir(), 'scip-java-kotlin-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const tools = { 'scip-java': '/opt/scip/bin/scip-java', java: '/nonexistent/bin/java' };
const runFor = (proxy?: ScipProjectRun['proxy'], cacheDir?: string): ScipProjectRun => {
  const env = indexerEnv(tools, '/tmp/s', { PATH: '/usr/bin:/bin', HOME: '/tmp', JAVA_TOOL_OPTIONS: '-Xmx64g' });
  if (proxy) for (const k of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) env[k] = proxy.url;
  return {
    root: '/repo',
    projectDir: '/p',
    project: 'app',
    tools,
    output: '/tmp/w/index.scip',
    scratchDir: '/tmp/s',
    env,
    ...(proxy ? { proxy } : {}),
    ...(cacheDir !== undefined ? { cacheDir } : {}),
  };
};

describe('scipJavaKotlin invocation', () => {
  it('runs `scip-java index` with Gradle (scip-java indexes Kotlin in Gradle builds only)', () => {
    const inv = scipJavaKotlin.invocation(runFor());
    expect(inv.args).toEqual(['index', '--build-tool', 'Gradle', '--output', '/tmp/w/index.scip']);
    expect(inv.command).toBeUndefined();
    expect(inv.cwd).toBeUndefined();
  });

  it('without a proxy: no JVM proxy options (the user’s JAVA_TOOL_OPTIONS is not passed either), caches in the scratch directory', () => {
    const env = scipJavaKotlin.invocation(runFor()).env!;
    expect(env['JAVA_TOOL_OPTIONS']).toBeUndefined();
    expect(env['HTTPS_PROXY']).toBeUndefined();
    expect(env).toMatchObject({
      PATH: '/opt/scip/bin:/nonexistent/bin:/usr/bin:/bin',
      HOME: '/tmp',
      GRADLE_USER_HOME: '/tmp/s/jvm/gradle',
      MAVEN_OPTS: '-Dmaven.repo.local=/tmp/s/jvm/m2/repository',
      COURSIER_CACHE: '/tmp/s/jvm/coursier',
      TERM: 'dumb',
    });
    expect(env['JAVA_HOME']).toBeUndefined();
  });

  it('with the host’s proxy: every JVM gets it as system properties, and the caches go to the plugin’s cache directory', () => {
    const proxy = { host: '127.0.0.1', port: 41234, url: 'http://127.0.0.1:41234' };
    const env = scipJavaKotlin.invocation(runFor(proxy, '/cache/lang-kotlin')).env!;
    // The SDK's jvmProxyOptions: loopback goes through the proxy too (no JVM default nonProxyHosts).
    expect(env['JAVA_TOOL_OPTIONS']).toBe(
      '-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=41234 -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=41234 -Dhttp.nonProxyHosts=',
    );
    expect(env['HTTPS_PROXY']).toBe('http://127.0.0.1:41234');
    expect(env['GRADLE_USER_HOME']).toBe('/cache/lang-kotlin/jvm/gradle');
    // A path with a space would be split by MAVEN_OPTS: the scratch directory then.
    expect(scipKotlinEnv(runFor(undefined, '/Users/a/Library/Application Support/travsr'))['GRADLE_USER_HOME']).toBe('/tmp/s/jvm/gradle');
    // The cache directory without a proxy (the standard tier: nothing to download, caches still kept).
    const standard = scipKotlinEnv(runFor(undefined, '/cache/lang-kotlin'));
    expect(standard['GRADLE_USER_HOME']).toBe('/cache/lang-kotlin/jvm/gradle');
    expect(standard['JAVA_TOOL_OPTIONS']).toBeUndefined();
  });

  it('sets JAVA_HOME to the JDK the java found belongs to', () => {
    write(dir, { 'jdk-21/release': 'JAVA_VERSION="21"\n', 'jdk-21/bin/java': '', 'jre/bin/java': '' });
    mkdirSync(join(dir, 'usr-bin'), { recursive: true });
    symlinkSync(join(dir, 'jdk-21', 'bin', 'java'), join(dir, 'usr-bin', 'java'));
    expect(javaHomeOf(join(dir, 'usr-bin', 'java'))).toBe(join(dir, 'jdk-21'));
    expect(javaHomeOf(join(dir, 'jre', 'bin', 'java'))).toBeUndefined();
    expect(javaHomeOf(undefined)).toBeUndefined();
    expect(scipKotlinEnv({ ...runFor(), tools: { ...tools, java: join(dir, 'usr-bin', 'java') } })['JAVA_HOME']).toBe(join(dir, 'jdk-21'));
  });
});

describe('scipJavaKotlin projects', () => {
  it('indexes the outermost Gradle builds and not Maven ones', async () => {
    const repo = join(dir, 'repo');
    write(repo, {
      'kotlin/settings.gradle.kts': '',
      'kotlin/app/build.gradle.kts': '',
      'kotlin/app/src/main/kotlin/A.kt': 'class A',
      'legacy/build.gradle': '',
      'maven-kotlin/pom.xml': '<project/>',
      'maven-kotlin/src/main/kotlin/B.kt': 'class B',
      'kotlin/build/generated/build.gradle.kts': '',
    });
    expect(await scipJavaKotlin.projects!(repo)).toEqual(['kotlin', 'legacy']);
  });

  it('has nothing to index without a Gradle build, and says so', async () => {
    write(dir, { 'loose/Main.kt': 'fun main() {}', 'loose/pom.xml': '<project/>' });
    expect(await scipJavaKotlin.projects!(join(dir, 'loose'))).toEqual([]);
    expect(scipJavaKotlin.noProjects).toMatch(/no build.gradle\(.kts\) or settings.gradle\(.kts\).*Kotlin only in Gradle builds/);
  });

  it('runs on a copy without its build output (at the top only) and build tool caches (anywhere), reading UTF-16 positions', () => {
    expect(scipJavaKotlin.copyProject).toEqual({ skip: COPY_SKIP, skipAnywhere: COPY_SKIP_ANYWHERE });
    expect(COPY_SKIP).toEqual(expect.arrayContaining(['build', 'out']));
    // A source package may be named build: only names no package can have go at any depth.
    expect(COPY_SKIP_ANYWHERE).toEqual(['.gradle', '.kotlin']);
    expect(scipJavaKotlin.graph).toEqual({ unspecifiedEncoding: 'utf16' });
  });
});
