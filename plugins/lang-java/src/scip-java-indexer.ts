import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jvmProxyOptions, projectDirs, type ScipIndexer, type ScipProjectRun } from '@travsr/sdk/scip';

// What this relies on, from sourcegraph/scip-java (read at v0.12.3, the last Scala release, and
// at v0.13.0 / main, the Kotlin rewrite published as org.scip-code:scip-java):
// - `scip-java index [--output <file>] [--build-tool <Maven|Gradle>] [-- <build command>]` runs in
//   the project directory (IndexCommand.scala / IndexCommand.kt: `--output` defaults to
//   index.scip; with both a pom.xml and a Gradle build and no --build-tool it refuses to run:
//   "Multiple build tools detected").
// - It runs the project's build: `./mvnw` when executable, else `mvn` on PATH, with
//   `--batch-mode clean verify -DskipTests` (MavenBuildTool); `./gradlew` when executable, else
//   `gradle` on PATH, with `--no-daemon --init-script … clean scipPrintDependencies scipCompileAll`
//   (GradleBuildTool). The build writes target/ and build/ in the project.
// - The Gradle plugin it injects adds mavenCentral() (repo.maven.apache.org); 0.12 resolves its
//   Kotlin compiler plugin from there too. The coursier launcher of scip-java (not the
//   `--standalone` one) fetches its jars from repo1.maven.org on first run.
// - Positions come from javac's LineMap / Kotlin's line mapping: UTF-16 code units, and the index
//   leaves `position_encoding` unset (ScipVisitor.lineMapRange; no setPositionEncoding anywhere).
// - Kotlin is indexed for Gradle builds only (docs/getting-started.md, "Supported programming
//   languages": Kotlin ✅ Gradle, ❌ Maven).

/** How to install scip-java, shown when it is missing. */
export const SCIP_JAVA_HINT =
  'install scip-java (https://sourcegraph.github.io/scip-java/docs/getting-started.html; e.g. `coursier bootstrap --standalone -o scip-java com.sourcegraph:scip-java_2.13:0.12.3 --main com.sourcegraph.scip_java.ScipJava`) on the PATH of the process running Travsr';

/** How to install the JDK scip-java runs on and compiles with. */
export const JDK_HINT =
  'install a JDK 17 or newer (java and javac, e.g. https://adoptium.net) on the PATH: scip-java runs on it and the build compiles with it';

/** The build files that make a directory a Maven or Gradle build of its own. */
export const JAVA_PROJECT_FILES = ['pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'];

/**
 * What the copy of a project scip-java builds leaves out at the project's top: its build output
 * (the build runs `clean` anyway) and IDE state. Matched at the top only, so a source package
 * named `build`, `target` or `out` is copied; a module's own `target/` or `build/` in a Maven
 * reactor or Gradle multi-project build is copied too (only a cost: `clean` deletes it).
 */
export const COPY_SKIP = ['target', 'build', 'out', '.idea'];

/**
 * Left out at any depth: Gradle's and Kotlin's project caches (`.gradle`, `.kotlin`), which an
 * included build or `buildSrc` keeps too, and whose names no Java or Kotlin package can have.
 */
export const COPY_SKIP_ANYWHERE = ['.gradle', '.kotlin'];

/** The JDK a `java` executable belongs to (`<home>/bin/java`, `<home>/release`), for JAVA_HOME; undefined when it is not one. */
export function javaHomeOf(java: string | undefined): string | undefined {
  if (!java) return undefined;
  let real = java;
  try {
    real = realpathSync(java);
  } catch {
    return undefined;
  }
  const bin = dirname(real);
  const home = dirname(bin);
  return basename(bin) === 'bin' && existsSync(join(home, 'release')) ? home : undefined;
}

/** The build tool scip-java is told to use in a project directory: Maven with a pom.xml (scip-java's own order), else Gradle. */
export function buildToolOf(projectDir: string): 'Maven' | 'Gradle' {
  return existsSync(join(projectDir, 'pom.xml')) ? 'Maven' : 'Gradle';
}

/** Where Maven, Gradle and coursier keep what they download. */
export function jvmCachesDir(run: Pick<ScipProjectRun, 'scratchDir' | 'cacheDir'>): string {
  // The plugin's cache (kept between sessions, on disk) unless there is none or its path has a
  // space, which MAVEN_OPTS would split.
  const { cacheDir } = run;
  return cacheDir !== undefined && !/\s/.test(cacheDir) ? join(cacheDir, 'jvm') : join(run.scratchDir, 'jvm');
}

/**
 * The environment scip-java and the build it runs get: the run's (PATH with the tools first,
 * HOME, the proxy variables), JAVA_HOME of the `java` found, the JVM proxy properties in
 * JAVA_TOOL_OPTIONS (every JVM started reads it: scip-java, Maven, the Gradle wrapper, client and
 * daemon, a forked javac), and Maven's, Gradle's and coursier's caches in `jvmCachesDir`: the
 * run's `cacheDir` (the user's ~/.m2 and ~/.gradle are not visible in the sandbox).
 */
export function scipJavaEnv(run: Pick<ScipProjectRun, 'env' | 'tools' | 'scratchDir' | 'proxy' | 'cacheDir'>): NodeJS.ProcessEnv {
  const caches = jvmCachesDir(run);
  const env: NodeJS.ProcessEnv = {
    ...run.env,
    GRADLE_USER_HOME: join(caches, 'gradle'),
    // The Maven wrapper keeps its Maven distributions there; Maven its local repository below.
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
 * scip-java as lang-java runs it: once per build — the outermost directories holding a pom.xml or
 * a Gradle build (a Maven reactor or a Gradle multi-project build indexes its modules) — on a
 * copy of the project (the build writes target/ and build/; the repository is read-only), with
 * the build tool named (Maven when there is a pom.xml), the project's ./mvnw or ./gradlew when
 * it has one and else `mvn` or `gradle` from the PATH (both optional tools the host binds when
 * found), dependencies fetched through the host's allowlist proxy and cached in the plugin's cache
 * directory (`run.cacheDir`).
 */
export const scipJava: ScipIndexer = {
  name: 'scip-java',
  languageName: 'Java',
  tools: ['scip-java', 'java'],
  installHint: SCIP_JAVA_HINT,
  toolHints: { java: JDK_HINT },
  projects: (root) => projectDirs(root, JAVA_PROJECT_FILES),
  invocation: (run) => ({
    args: ['index', '--build-tool', buildToolOf(run.projectDir), '--output', run.output],
    env: scipJavaEnv(run),
  }),
  copyProject: { skip: COPY_SKIP, skipAnywhere: COPY_SKIP_ANYWHERE },
  graph: { unspecifiedEncoding: 'utf16' },
  // A build downloads its dependencies first, and compiles everything.
  timeoutMs: 45 * 60_000,
  notIndexed:
    'scip-java did not index this file (outside every Maven or Gradle build, or not compiled by it): its refs are matched by name',
  noProjects: 'scip-java has nothing to index: no pom.xml, build.gradle(.kts) or settings.gradle(.kts) in the repository',
};
