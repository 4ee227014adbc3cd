import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jvmProxyOptions, projectDirs, type ScipIndexer, type ScipProjectRun } from '@travsr/sdk/scip';

// scip-java indexes Kotlin with its Kotlin compiler plugin, which it attaches to the Kotlin
// compile tasks of a Gradle build only (sourcegraph/scip-java docs/getting-started.md, "Supported
// programming languages": Kotlin ✅ Gradle, ❌ Maven; ScipGradlePlugin adds
// `-Xplugin=<scip-kotlinc>` to every KotlinCompile task; GradleBuildTool runs `./gradlew` when
// executable, else `gradle` from PATH, with `--no-daemon --init-script …
// -Pkotlin.compiler.execution.strategy=in-process clean scipPrintDependencies scipCompileAll`).
// `scip-java index --build-tool Gradle --output <file>` (IndexCommand, v0.12.3 and v0.13). Kotlin
// positions are UTF-16 code units (the compiler's line mapping), the encoding left unset.
// The JVM helpers below are lang-java's too: each plugin is bundled on its own.

/** How to install scip-java, shown when it is missing. */
export const SCIP_JAVA_HINT =
  'install scip-java (https://sourcegraph.github.io/scip-java/docs/getting-started.html; e.g. `coursier bootstrap --standalone -o scip-java com.sourcegraph:scip-java_2.13:0.12.3 --main com.sourcegraph.scip_java.ScipJava`) on the PATH of the process running Travsr';

/** How to install the JDK scip-java and Gradle run on. */
export const JDK_HINT = 'install a JDK 17 or newer (e.g. https://adoptium.net) on the PATH: scip-java and the Gradle build run on it';

/** The files that make a directory a Gradle build: scip-java indexes Kotlin in Gradle builds only. */
export const GRADLE_PROJECT_FILES = ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'];

/**
 * Left out of the copy the build runs on at the project's top: its build output (the build runs
 * `clean` anyway) and IDE state. Matched at the top only, so a source package named `build` is
 * copied, and so is a subproject's own `build/` (only a cost: `clean` deletes it).
 */
export const COPY_SKIP = ['target', 'build', 'out', '.idea'];

/**
 * Left out at any depth: Gradle's and Kotlin's project caches (`.gradle`, `.kotlin`), which an
 * included build or `buildSrc` keeps too, and whose names no Kotlin package can have.
 */
export const COPY_SKIP_ANYWHERE = ['.gradle', '.kotlin'];

/** The JDK home of a `java` executable (`<home>/bin/java` next to `<home>/release`), else undefined. */
export function javaHomeOf(java: string | undefined): string | undefined {
  try {
    const bin = dirname(realpathSync(java ?? ''));
    return basename(bin) === 'bin' && existsSync(join(dirname(bin), 'release')) ? dirname(bin) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * scip-java's and Gradle's environment: the run's, JAVA_HOME, the proxy in JAVA_TOOL_OPTIONS
 * (every JVM reads it: scip-java, the Gradle wrapper, client and daemon), and Gradle's, Maven's
 * and coursier's caches in the plugin's cache directory (`run.cacheDir`; the scratch directory
 * without one, or when its path has a space, which MAVEN_OPTS would split).
 */
export function scipKotlinEnv(run: Pick<ScipProjectRun, 'env' | 'tools' | 'scratchDir' | 'proxy' | 'cacheDir'>): NodeJS.ProcessEnv {
  const { cacheDir } = run;
  const caches = cacheDir !== undefined && !/\s/.test(cacheDir) ? join(cacheDir, 'jvm') : join(run.scratchDir, 'jvm');
  const env: NodeJS.ProcessEnv = {
    ...run.env,
    GRADLE_USER_HOME: join(caches, 'gradle'),
    MAVEN_USER_HOME: join(caches, 'm2'),
    MAVEN_OPTS: `-Dmaven.repo.local=${join(caches, 'm2', 'repository')}`,
    COURSIER_CACHE: join(caches, 'coursier'),
    TERM: 'dumb',
  };
  // JAVA_TOOL_OPTIONS only with a proxy: every JVM prints a notice when it is set.
  const proxy = jvmProxyOptions(run.proxy);
  if (proxy !== '') env['JAVA_TOOL_OPTIONS'] = proxy;
  else delete env['JAVA_TOOL_OPTIONS'];
  const home = javaHomeOf(run.tools['java']);
  if (home) env['JAVA_HOME'] = home;
  return env;
}

/**
 * scip-java as lang-kotlin runs it: once per Gradle build (the outermost directories holding a
 * build or settings script: a multi-project build indexes its subprojects), on a copy of it (the
 * build writes build/), with the project's ./gradlew or `gradle` from PATH, dependencies fetched
 * through the host's allowlist proxy and cached in the plugin's cache directory (`run.cacheDir`).
 */
export const scipJavaKotlin: ScipIndexer = {
  name: 'scip-java',
  languageName: 'Kotlin',
  tools: ['scip-java', 'java'],
  installHint: SCIP_JAVA_HINT,
  toolHints: { java: JDK_HINT },
  projects: (root) => projectDirs(root, GRADLE_PROJECT_FILES),
  invocation: (run) => ({
    args: ['index', '--build-tool', 'Gradle', '--output', run.output],
    env: scipKotlinEnv(run),
  }),
  copyProject: { skip: COPY_SKIP, skipAnywhere: COPY_SKIP_ANYWHERE },
  graph: { unspecifiedEncoding: 'utf16' },
  timeoutMs: 45 * 60_000,
  notIndexed:
    'scip-java did not index this file (outside every Gradle build — scip-java indexes Kotlin only in Gradle builds — or not compiled by it): its refs are matched by name',
  noProjects:
    'scip-java has nothing to index: no build.gradle(.kts) or settings.gradle(.kts) in the repository (scip-java indexes Kotlin only in Gradle builds)',
};
