import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jvmProxyOptions, projectDirs, type ScipIndexer, type ScipProjectRun } from '@travsr/sdk/scip';

// What this relies on, from sourcegraph/scip-java v0.12.3 (4486a05, the last release with sbt and
// Scala: 0.13, the Kotlin rewrite, indexes Maven and Gradle builds only) and
// sourcegraph/sbt-sourcegraph (7920f9a):
// - `scip-java index [--build-tool=<name>] [--output <file>]` runs in the project directory
//   (IndexCommand.scala; the build tool's name compares case-insensitively, `sbt`; `--output` is
//   resolved against the working directory, so an absolute path stays as it is).
// - SbtBuildTool.scala: a directory with build.sbt is an sbt build; scip-java refuses one without
//   `sbt.version` (1.2 or newer) in project/build.properties, writes
//   project/sourcegraph_generated.sbt (`addSbtPlugin("com.sourcegraph" % "sbt-sourcegraph" % …)`),
//   runs `sbt sourcegraphEnable sourcegraphScip` with the `sbt` on PATH, and copies
//   target/sbt-sourcegraph/index.scip to the output: it writes into the project.
// - sbt-sourcegraph's sourcegraphEnable adds the semanticdb-scalac (and semanticdb-javac) compiler
//   plugin to every project; sourcegraphScip compiles them and runs
//   `coursier launch com.sourcegraph:scip-java_2.13:<v> -- index-semanticdb` with a coursier
//   launcher it writes into target/ (`exec java $JAVA_OPTS …`): everything it fetches comes from
//   Maven Central (repo1.maven.org), as sbt's own artifacts do; sbt plugins published the old
//   way come from repo.scala-sbt.org, which redirects to scala.jfrog.io (sbt/sbt#7202), and the
//   launcher's boot repositories include repo.typesafe.com and repo.scala-sbt.org
//   (sbt/sbt launch/src/main/input_resources/sbt/sbt.boot.properties).
// - sbt reads -Dsbt.global.base, -Dsbt.boot.directory and -Dsbt.ivy.home (sbt.boot.properties),
//   COURSIER_CACHE for its coursier cache (main/…/coursierint/LMCoursier.scala),
//   -Dsbt.server.autostart=false (CommandExchange.scala) and -Dsbt.ci=true (SysProp.scala). In
//   the sandbox there is no /etc/passwd, so a JVM's user.home is set explicitly.
// - Positions come from the Scala compiler's character offsets: UTF-16 code units, and the index
//   leaves `position_encoding` unset. Symbols are SemanticDB's as `semanticdb maven . . <pkg>/…`
//   for the build's own code and the Scala library (`scala/Predef.println(+1).`), the JDK as
//   `semanticdb maven jdk 11 java/…`; an object is `shop/Pricing.`, a class `shop/Cart#`, its
//   primary constructor `shop/Cart#\`<init>\`().` defined just after the class name; parents are
//   references, overrides `is_implementation` relationships of the member
//   (tests/snapshots/…/minimized-scala).

/** How to install scip-java, shown when it is missing. */
export const SCIP_JAVA_HINT =
  'install scip-java 0.12.3 (the last release that indexes sbt builds; e.g. `coursier bootstrap --standalone -o scip-java com.sourcegraph:scip-java_2.13:0.12.3 --main com.sourcegraph.scip_java.ScipJava`, https://sourcegraph.github.io/scip-java/docs/getting-started.html) on the PATH of the process running Travsr';

/** How to install the JDK scip-java and sbt run on. */
export const JDK_HINT = 'install a JDK 11 or newer (java, e.g. https://adoptium.net) on the PATH: scip-java and sbt run on it';

/** How to install sbt, which scip-java runs. */
export const SBT_HINT = 'install sbt 1.4 or newer (https://www.scala-sbt.org/download) on the PATH: scip-java builds the project with it';

/** The build file that makes a directory an sbt build of its own. */
export const SCALA_PROJECT_FILES = ['build.sbt'];

/**
 * What the copy of a build leaves out, at every depth: sbt's output (`target/` of the build, of
 * each subproject and of `project/`) and the state of build servers and IDEs. A source package
 * directory named `target` is left out too (the SDK skips by name).
 */
export const COPY_SKIP_ANYWHERE = ['target', '.bsp', '.bloop', '.metals', '.idea'];

/** The JDK a `java` executable belongs to (`<home>/bin/java`, `<home>/release`), for JAVA_HOME; undefined when it is not one. */
export function javaHomeOf(java: string | undefined): string | undefined {
  if (!java) return undefined;
  let real: string;
  try {
    real = realpathSync(java);
  } catch {
    return undefined;
  }
  const bin = dirname(real);
  const home = dirname(bin);
  return basename(bin) === 'bin' && existsSync(join(home, 'release')) ? home : undefined;
}

/**
 * Where sbt, Ivy, coursier and the JVMs' home keep what they download and compile (the Scala
 * compiler, the compiler bridge, the build's dependencies): the plugin's cache when the host gives
 * one (kept between sessions) and its path has no whitespace (JAVA_TOOL_OPTIONS splits at
 * spaces), else the run's scratch directory.
 */
export function sbtCachesDir(run: Pick<ScipProjectRun, 'scratchDir' | 'cacheDir'>): string {
  const cache = run.cacheDir;
  return cache !== undefined && cache !== '' && !/\s/.test(cache) ? join(cache, 'sbt') : join(run.scratchDir, 'sbt');
}

/** The JVM options every JVM of the run gets (JAVA_TOOL_OPTIONS): the proxy, the home and sbt's directories, sbt without a server or a fancy terminal. */
export function sbtJvmOptions(run: Pick<ScipProjectRun, 'scratchDir' | 'cacheDir' | 'proxy'>): string {
  const caches = sbtCachesDir(run);
  return jvmProxyOptions(run.proxy, [
    `-Duser.home=${join(caches, 'home')}`,
    `-Dsbt.global.base=${join(caches, 'global')}`,
    `-Dsbt.boot.directory=${join(caches, 'boot')}`,
    `-Dsbt.ivy.home=${join(caches, 'ivy2')}`,
    '-Dsbt.server.autostart=false',
    '-Dsbt.ci=true',
    '-Dsbt.log.noformat=true',
  ]);
}

/**
 * The environment scip-java, sbt and the JVMs they start get: the run's (PATH with the tools
 * first, HOME, the proxy variables, which curl in the sbt script honours), JAVA_HOME of the
 * `java` found, {@link sbtJvmOptions} in JAVA_TOOL_OPTIONS (every JVM reads it: scip-java, sbt,
 * the coursier launcher of sbt-sourcegraph; JVMs ignore HTTPS_PROXY) and coursier's cache.
 */
export function scipJavaSbtEnv(run: Pick<ScipProjectRun, 'env' | 'tools' | 'scratchDir' | 'cacheDir' | 'proxy'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...run.env,
    JAVA_TOOL_OPTIONS: sbtJvmOptions(run),
    COURSIER_CACHE: join(sbtCachesDir(run), 'coursier'),
    TERM: 'dumb',
  };
  const home = javaHomeOf(run.tools['java']);
  if (home) env['JAVA_HOME'] = home;
  return env;
}

/**
 * scip-java as lang-scala runs it: once per sbt build — the outermost directories holding a
 * build.sbt (a multi-project build indexes its subprojects) — on a copy of the build without
 * target/ (sbt compiles, scip-java adds a plugin under project/; the repository is read-only),
 * with the sbt build tool named, sbt and its downloads through the host's allowlist proxy, and
 * its caches in the plugin's cache.
 */
export const scipJavaSbt: ScipIndexer = {
  name: 'scip-java',
  languageName: 'Scala',
  tools: ['scip-java', 'java', 'sbt'],
  installHint: SCIP_JAVA_HINT,
  toolHints: { java: JDK_HINT, sbt: SBT_HINT },
  async projects(root) {
    return projectDirs(root, SCALA_PROJECT_FILES);
  },
  invocation: (run) => ({
    args: ['index', '--build-tool=sbt', '--output', run.output],
    env: scipJavaSbtEnv(run),
  }),
  copyProject: { skip: [], skipAnywhere: COPY_SKIP_ANYWHERE },
  graph: { unspecifiedEncoding: 'utf16' },
  // sbt boots, resolves and compiles everything (the Scala compiler is slow): up to an hour.
  timeoutMs: 60 * 60_000,
  notIndexed: 'scip-java did not index this file (outside every sbt build, or not compiled by it): its refs are matched by name',
  noProjects: 'scip-java has nothing to index: no build.sbt in the repository (lang-scala indexes sbt builds)',
};
