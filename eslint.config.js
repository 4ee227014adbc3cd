// @ts-check
import tseslint from 'typescript-eslint';

/** Imports each package may not make: the dependency rule of DESIGN.md, enforced. */
const forbidden = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noHost = { group: ['travsr', 'travsr/*', '**/host/src/**'], message: 'Nothing imports the host: it starts plugins as processes.' };
const noPlugins = {
  group: ['@travsr/plugin-*', '**/plugins/*/src/**', '**/plugins/*/dist/**'],
  message: 'The host never imports a plugin; it only starts one as a process.',
};

export default tseslint.config(
  {
    ignores: [
      'test/bench/.cache/**',
      'release/**',
      'host/templates/**',
      '**/dist/**',
      '**/node_modules/**',
      '**/snapshots/**',
      'protocol/corpus/**',
      'protocol/generated/**',
      'test/fixtures/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['protocol/src/**/*.ts'],
    rules: forbidden([
      {
        group: ['@travsr/*', 'travsr', '**/sdk/**', '**/host/**', '**/registry/**'],
        message: '@travsr/protocol has no internal dependencies.',
      },
    ]),
  },
  {
    files: ['sdk/src/**/*.ts'],
    rules: forbidden([noHost, noPlugins, { group: ['@travsr/registry'], message: 'The SDK depends on the protocol only.' }]),
  },
  {
    files: ['registry/src/**/*.ts'],
    rules: forbidden([
      noHost,
      noPlugins,
      { group: ['@travsr/sdk', '@travsr/sdk/*'], message: 'The registry depends on the protocol only.' },
    ]),
  },
  { files: ['host/src/**/*.ts'], rules: forbidden([noPlugins]) },
  {
    // Query-time reads of repository files go through RepoFileReader: no links, regular files, hash-checked.
    files: ['host/src/retrieval/**/*.ts', 'host/src/tools/**/*.ts'],
    ignores: ['host/src/retrieval/repo-file-reader.ts'],
    rules: forbidden([
      noPlugins,
      {
        group: ['node:fs', 'node:fs/*', 'fs', 'fs/*'],
        message:
          'Read repository files through RepoFileReader (host/src/retrieval/repo-file-reader.ts): it follows no link and checks the indexed hash.',
      },
    ]),
  },
  {
    // A plugin is a package of its own: it imports only what its package.json declares
    // (test/plugins/declared-dependencies.test.ts checks every package), and the SDK re-exports the graph types.
    files: ['plugins/*/src/**/*.ts'],
    rules: forbidden([
      noHost,
      { group: ['@travsr/registry'], message: 'Plugins depend on the SDK only.' },
      {
        group: ['@travsr/protocol', '@travsr/protocol/*'],
        message: "Plugins depend on the SDK only: import the graph types (Node, Edge, VName, Range, AnalyzeFile, …) from '@travsr/sdk'.",
      },
    ]),
  },
  {
    files: ['**/test/**/*.ts', 'test/**/*.ts'],
    // Tests poke at untyped JSON and fake async APIs on purpose.
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
