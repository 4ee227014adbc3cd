import { languageOfFiles } from '@travsr/sdk';
import table from '../languages.json' with { type: 'json' };

/** The languages lang-clang serves: id → grammar file and extensions (languages.json, which the build reads too). */
export const LANGUAGES: Readonly<Record<string, { readonly grammar: string; readonly extensions: readonly string[] }>> = table;

/** Extension → language id: `.h` is C (as the host's table says), `.hpp` C++. */
export const FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LANGUAGES).flatMap(([id, l]) => l.extensions.map((e) => [e, id])),
);

/** The language of a repository path, or undefined for a file this plugin does not parse. */
export const languageOf = languageOfFiles(FILES);
