import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import type { PluginManifest } from '@travsr/protocol';
import { SANDBOX_TIERS, toolBind, whichOnPath, type SandboxTier } from '../sandbox/index.js';
import type { ResolvedTool } from '../sandbox/plugin-tools.js';

/** The `lang.scip*` configuration: the SCIP indexers users bring, by language. */
export interface BroughtIndexerSettings {
  /** `lang.scipCommand`: language → command line with `{output}`. */
  commands: Readonly<Record<string, string>>;
  /** `lang.scipTier`: language → tier (default standard). */
  tiers?: Readonly<Record<string, string>>;
  /** `lang.scipNetwork`: language → space-separated `host[:port]` entries (elevated). */
  networks?: Readonly<Record<string, string>>;
}

/** What a plugin's session gets for the indexers brought for its languages. */
export interface BroughtIndexerPlan {
  /** `initialize.options.scip`: one entry per language, its program by name in `options.tools`. */
  entries: { language: string; name: string; args: string[] }[];
  /** The programs found on PATH, to bind into the sandbox and name in `options.tools`. */
  tools: ResolvedTool[];
  /** The tier the session runs in: the plugin's own, raised to the highest an indexer asks for. */
  tier: SandboxTier;
  /** The hosts the indexers may reach (elevated), which the session's allowlist gains. */
  hosts: string[];
}

/** A command line split into words as a POSIX shell would for plain words, '…' and "…" quoting, and \ escapes (no expansion). */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word = (word ?? '') + text[++i]!;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (quote) throw new Error(`unclosed ${quote} in ${JSON.stringify(text)}`);
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * The indexers users brought for the languages a plugin serves (`[lang.<language>.scip]`), ready
 * for its session: each command split into its program and arguments, the program looked up on
 * PATH like a declared tool (bound read-only into the sandbox; a missing one is left out, and the
 * plugin says Phase B of that language cannot run), the session's tier raised to the highest an
 * indexer asks for, and the hosts they may reach (for the session's allowlist). Undefined when none was brought for its languages.
 * @throws Error when a command line cannot be split (an unclosed quote).
 */
export function broughtIndexersFor(
  manifest: Pick<PluginManifest, 'languages'>,
  settings: BroughtIndexerSettings | undefined,
  grant: { tier: SandboxTier },
  pathEnv: string | undefined = process.env['PATH'],
): BroughtIndexerPlan | undefined {
  const languages = manifest.languages.filter((l) => settings?.commands[l] !== undefined);
  if (languages.length === 0) return undefined;
  const plan: BroughtIndexerPlan = { entries: [], tools: [], tier: grant.tier, hosts: [] };
  for (const language of languages) {
    const [program, ...args] = splitCommandLine(settings!.commands[language]!);
    if (!program) continue;
    const name = basename(program);
    plan.entries.push({ language, name, args });
    const at = isAbsolute(program) ? (existsSync(program) ? program : undefined) : whichOnPath(program, pathEnv);
    if (at !== undefined && !plan.tools.some((t) => t.name === name)) {
      let real = at;
      try {
        real = realpathSync(at);
      } catch {
        // keep the path as written
      }
      plan.tools.push({ name, path: real, bind: toolBind(real) });
    }
    const tier = (settings!.tiers?.[language] ?? 'standard') as SandboxTier;
    if (SANDBOX_TIERS.indexOf(tier) > SANDBOX_TIERS.indexOf(plan.tier)) plan.tier = tier;
    for (const host of (settings!.networks?.[language] ?? '').split(/\s+/).filter((h) => h !== ''))
      if (!plan.hosts.includes(host)) plan.hosts.push(host);
  }
  return plan;
}
