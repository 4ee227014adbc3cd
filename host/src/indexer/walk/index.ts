/** Walking a repository: which files to index, which plugin takes each, and their hashes. */
export { walkRepository, DEFAULT_MAX_FILE_BYTES, VENDORED_DIRECTORY_NAMES, type WalkOptions } from './walker.js';
export { SkipReason, type WalkEntry, type WalkedFile, type SkippedEntry } from './walk-entry.js';
export { LanguageMap, extensionLanguages, type LanguageMatch, type LanguagePlugin, type LanguageMapOptions } from './language-map.js';
export { wellKnownLanguage } from './well-known-languages.js';
export { LoopTurns } from './loop-turns.js';
export { hashFile, hashFileSync, hashFiles, type FileHash, type HashOutcome } from './file-hash.js';
export { IgnoreRules, IgnoreMatcher, IGNORE_FILE_NAMES, MATCHER_CACHE_LIMIT, rebasePattern, gitInfoExcludePath } from './ignore-rules.js';
export { classifyName, classifyPrefix, PREFIX_BYTES, BINARY_SNIFF_BYTES, type ContentVerdict } from './content-checks.js';
export { WalkError, WalkErrorCode } from './errors.js';
