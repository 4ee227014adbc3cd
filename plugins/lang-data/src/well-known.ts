import type { Range } from '@travsr/sdk';
import type { DataFormat } from './formats.js';
import type { DataDocument, Entry } from './model.js';

/**
 * Well-known files get a little more than their top-level keys: the names that people look
 * for in them (dependencies, scripts, services, jobs) become `key` nodes under the key that
 * holds them. Each rule names where (a key path, `*` for any one key) and how to read the
 * names there. The list is in the README; keep both in step.
 */

/** A key node to add under the entry a rule matched. */
export interface WellKnownChild {
  name: string;
  range: Range;
  skeleton: string;
}

export interface WellKnownRule {
  /** Which file kind, for the README and for tests: `package.json`, `Cargo.toml`, … */
  file: string;
  /** Key path from the document's top level; `*` matches any one key. */
  pattern: readonly string[];
  /** The children to add under a matched entry. */
  children(entry: Entry, render: (entry: Entry) => string): WellKnownChild[];
}

/** The keys of a mapping (`"react": "^18.2.0"`); a dotted TOML key counts as its first segment. */
function mappingKeys(entry: Entry, render: (entry: Entry) => string): WellKnownChild[] {
  if (entry.value.kind !== 'mapping') return [];
  return entry.value.entries().map((e) => ({ name: e.path[0] ?? '', range: e.range, skeleton: render(e) }));
}

/** The distribution name of a PEP 508 requirement (`requests[socks]>=2.31; python_version<"3.13"` → `requests`). */
export function requirementName(spec: string): string | undefined {
  return /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(spec)?.[1];
}

/** A list of PEP 508 strings (pyproject `dependencies`, optional and dependency groups). */
function requirements(entry: Entry): WellKnownChild[] {
  if (entry.value.kind !== 'sequence') return [];
  const out: WellKnownChild[] = [];
  for (const item of entry.value.items()) {
    if (item.value.kind !== 'scalar' || item.value.string === undefined) continue;
    const name = requirementName(item.value.string);
    if (name) out.push({ name, range: item.range, skeleton: item.value.text });
  }
  return out;
}

function textOf(entry: Entry, child: string): string | undefined {
  if (entry.value.kind !== 'mapping') return undefined;
  const found = entry.value.entries().find((e) => e.path[0] === child);
  return found?.value.kind === 'scalar' ? found.value.text : undefined;
}

/** Maven `<dependency>` elements, named `groupId:artifactId`. */
function mavenDependencies(entry: Entry): WellKnownChild[] {
  if (entry.value.kind !== 'mapping') return [];
  const out: WellKnownChild[] = [];
  for (const dep of entry.value.entries()) {
    if (dep.path[0] !== 'dependency') continue;
    const group = textOf(dep, 'groupId');
    const artifact = textOf(dep, 'artifactId');
    if (!artifact) continue;
    const name = group ? `${group}:${artifact}` : artifact;
    const version = textOf(dep, 'version');
    const scope = textOf(dep, 'scope');
    out.push({ name, range: dep.range, skeleton: `${name}${version ? `:${version}` : ''}${scope ? ` (${scope})` : ''}` });
  }
  return out;
}

const MSBUILD_ITEMS = new Set(['PackageReference', 'PackageVersion', 'ProjectReference']);

/** MSBuild `<PackageReference Include="…">` and friends, named by `Include` (or `Update`). */
function msbuildItems(entry: Entry): WellKnownChild[] {
  if (entry.value.kind !== 'mapping') return [];
  const out: WellKnownChild[] = [];
  for (const item of entry.value.entries()) {
    const name = item.attributes?.['Include'] ?? item.attributes?.['Update'];
    if (!MSBUILD_ITEMS.has(item.path[0] ?? '') || !name) continue;
    out.push({ name, range: item.range, skeleton: item.head });
  }
  return out;
}

const rule = (file: string, pattern: string[], children: WellKnownRule['children']): WellKnownRule => ({ file, pattern, children });

const PACKAGE_JSON = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'scripts'].map((k) =>
  rule('package.json', [k], mappingKeys),
);
const CARGO_TABLES = ['dependencies', 'dev-dependencies', 'build-dependencies'];
const CARGO = [
  ...CARGO_TABLES.map((t) => rule('Cargo.toml', [t], mappingKeys)),
  ...CARGO_TABLES.map((t) => rule('Cargo.toml', ['target', '*', t], mappingKeys)),
  rule('Cargo.toml', ['workspace', 'dependencies'], mappingKeys),
];
const PYPROJECT = [
  rule('pyproject.toml', ['project', 'dependencies'], requirements),
  rule('pyproject.toml', ['project', 'optional-dependencies', '*'], requirements),
  rule('pyproject.toml', ['project', 'scripts'], mappingKeys),
  rule('pyproject.toml', ['dependency-groups', '*'], requirements),
  rule('pyproject.toml', ['tool', 'poetry', 'dependencies'], mappingKeys),
  rule('pyproject.toml', ['tool', 'poetry', 'dev-dependencies'], mappingKeys),
  rule('pyproject.toml', ['tool', 'poetry', 'group', '*', 'dependencies'], mappingKeys),
];
const COMPOSE = ['services', 'networks', 'volumes'].map((k) => rule('Compose file', [k], mappingKeys));
const WORKFLOW = [rule('GitHub workflow', ['jobs'], mappingKeys)];
const MAVEN = [rule('Maven POM', ['project', 'dependencies'], mavenDependencies)];
const MSBUILD = [rule('MSBuild project', ['Project', 'ItemGroup'], msbuildItems)];

/** Every rule, for the README and tests. */
export const WELL_KNOWN_RULES: readonly WellKnownRule[] = [
  ...PACKAGE_JSON,
  ...CARGO,
  ...PYPROJECT,
  ...COMPOSE,
  ...WORKFLOW,
  ...MAVEN,
  ...MSBUILD,
];

const COMPOSE_NAME = /^(?:docker-)?compose(?:\.[\w.-]+)?\.ya?ml$/;

function topLevel(doc: DataDocument | undefined, key: string): Entry | undefined {
  return doc?.entries.find((e) => e.path.length === 1 && e.path[0] === key);
}

/**
 * The rules that apply to a file, by its name and, where names vary, its content: a YAML file
 * with top-level `on` and `jobs` is a GitHub workflow wherever it lives; a root `project`
 * element in the POM namespace is a Maven POM; a root `Project` element is MSBuild.
 */
export function wellKnownRules(path: string, format: DataFormat, documents: readonly DataDocument[]): WellKnownRule[] {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const first = documents[0];
  switch (format) {
    case 'json':
      return name === 'package.json' ? PACKAGE_JSON : [];
    case 'toml':
      if (name === 'Cargo.toml') return CARGO;
      return name === 'pyproject.toml' ? PYPROJECT : [];
    case 'yaml': {
      const rules: WellKnownRule[] = [];
      if (COMPOSE_NAME.test(name)) rules.push(...COMPOSE);
      const jobs = topLevel(first, 'jobs');
      if (path.includes('.github/workflows/') || (jobs?.value.kind === 'mapping' && topLevel(first, 'on'))) rules.push(...WORKFLOW);
      return rules;
    }
    case 'xml': {
      const root = first?.entries[0];
      if (root?.path[0] === 'Project') return MSBUILD;
      const pomNamespace = root?.attributes?.['xmlns']?.includes('maven.apache.org/POM') ?? false;
      if (root?.path[0] === 'project' && (name === 'pom.xml' || name.endsWith('.pom') || pomNamespace)) return MAVEN;
      return [];
    }
  }
}
