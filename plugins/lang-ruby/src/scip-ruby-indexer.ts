import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { projectDirs, type ScipIndexer } from '@travsr/sdk/scip';

/** How to install scip-ruby, shown when it is missing. */
export const SCIP_RUBY_HINT =
  'download scip-ruby from https://github.com/sourcegraph/scip-ruby/releases and put it on the PATH of the process running Travsr';

/** The files that make a directory a Ruby project of its own. */
export const RUBY_PROJECT_FILES = ['Gemfile', '*.gemspec', 'sorbet'];

/**
 * scip-ruby (Sorbet's type checker writing SCIP) as lang-ruby runs it: once per Ruby project —
 * the outermost directories holding a Gemfile, a gemspec or a `sorbet/` configuration, else the
 * repository root — offline, with the project's `sorbet/config` when it has one and the whole
 * directory otherwise. Sorbet reads no gems: calls into them are external to the index.
 */
export const scipRuby: ScipIndexer = {
  name: 'scip-ruby',
  languageName: 'Ruby',
  tools: ['scip-ruby'],
  installHint: SCIP_RUBY_HINT,
  async projects(root) {
    const found = await projectDirs(root, RUBY_PROJECT_FILES);
    return found.length > 0 ? found : [''];
  },
  invocation: ({ projectDir, output }) => ({
    // With sorbet/config, Sorbet takes its paths and options from it; else every Ruby file under the project.
    args: [
      ...(existsSync(join(projectDir, 'sorbet', 'config')) ? [] : ['.']),
      '--index-file',
      output,
      '--gem-metadata',
      `${basename(projectDir) || 'repository'}@local`,
    ],
  }),
  notIndexed:
    'scip-ruby did not index this file (outside every project it ran on, or excluded by sorbet/config): its refs are matched by name',
};
