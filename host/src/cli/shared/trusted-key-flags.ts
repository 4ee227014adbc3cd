import { Flags } from '@oclif/core';
import { readTrustedKeyFile, TrustedKeys, trustedKeyOf, type SigningKey } from '@travsr/registry';

/** `--trusted-key PUB` (repeatable): public key files (`.pub` from `travsr registry keygen`, or PEM). */
export function trustedKeyFlag(description: string, required = false) {
  return Flags.string({ multiple: true, multipleNonGreedy: true, required, description });
}

/** The keys of `files`, plus the signing key when one is given (a registry signed by its own key is always accepted). */
export async function loadTrustedKeys(files: readonly string[], signingKey?: SigningKey): Promise<TrustedKeys> {
  const trusted = new TrustedKeys();
  for (const file of files) trusted.add(await readTrustedKeyFile(file), file);
  if (signingKey) trusted.add(trustedKeyOf(signingKey));
  return trusted;
}
