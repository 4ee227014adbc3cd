import { TravsrError } from '@travsr/protocol';

/** String codes of `travsr lang` errors. Recognise errors by `code`. */
export const LangErrorCode = {
  /** `.travsr/plugins.lock` is not valid TOML or has an entry of the wrong shape. */
  LockInvalid: 'LOCK_INVALID',
  /** `--frozen-lockfile` was given and the command would have changed the lock file. */
  LockWouldChange: 'LOCK_WOULD_CHANGE',
  /** No plugin in the registry (or lang.toml) serves the language or has the id asked for. */
  NotFound: 'LANG_NOT_FOUND',
  /** Several plugins claim the language and `plugins.prefer` does not choose one. */
  Ambiguous: 'LANG_AMBIGUOUS',
  /** A `registry.trustedKeys` entry is neither a readable key file nor an inline `ed25519:<base64>` key. */
  TrustedKeyInvalid: 'TRUSTED_KEY_INVALID',
  /** `registry.url` is empty and this installation has no built-in registry (it was not built). */
  BuiltinRegistryMissing: 'BUILTIN_REGISTRY_MISSING',
  /** An argument is neither `lang`, `id`, `id@range`, a plugin directory nor a `.tgz`. */
  ArgumentInvalid: 'LANG_ARGUMENT_INVALID',
  /** Installed plugins whose files no longer match the tree hash recorded at install. */
  Modified: 'PLUGIN_FILES_CHANGED',
  /**
   * The repository's `.travsr/plugins.lock` locks a version of a registered plugin other than the one
   * lang.toml registers, and that version is not installed under `<TRAVSR_HOME>/plugins/<id>/<version>/`.
   */
  LockedVersionNotInstalled: 'LOCKED_VERSION_NOT_INSTALLED',
  /**
   * A registry named by a repository's own config offers a version whose files differ from the
   * copy already installed under `<TRAVSR_HOME>/plugins/<id>/<version>/`, which other repositories run.
   */
  RepositoryRegistryConflict: 'REPOSITORY_REGISTRY_CONFLICT',
  /**
   * lang.toml maps a language to a plugin that no longer serves it (an update moved the language
   * to its own plugin, as Go went from lang-structural to lang-go and Python to lang-python).
   */
  LanguageNotServed: 'LANGUAGE_NOT_SERVED',
  /** `lang mirror` target exists and is not empty. */
  MirrorTargetNotEmpty: 'MIRROR_TARGET_NOT_EMPTY',
  /** A plugin, or a package its SBOM lists, has a licence outside `registry.allowedLicences`. */
  LicenceNotAllowed: 'LICENCE_NOT_ALLOWED',
  /** An installed plugin's SBOM copy or install record is missing, unreadable or does not match the hash recorded at install. */
  InstallRecordInvalid: 'INSTALL_RECORD_INVALID',
} as const;
export type LangErrorCode = (typeof LangErrorCode)[keyof typeof LangErrorCode];

/** An error of `travsr lang`: what happened, why, what to do. */
export class LangError extends TravsrError {
  override readonly name = 'LangError';
  constructor(
    readonly code: LangErrorCode,
    message: string,
  ) {
    super(message);
  }
}
