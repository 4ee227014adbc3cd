// The analyzer in-process, one format at a time: which key nodes come out, with which ranges
// (1-based lines, 0-based UTF-8 byte columns, end exclusive), skeletons and parents.
import { describe, expect, it } from 'vitest';
import { MAX_KEYS_PER_PARENT } from '../src/emit.js';
import { analyze, at, containsEdges, keyRanges, keys } from './helpers/analyze.js';

describe('JSON', () => {
  const pkg = [
    '{',
    '  "name": "demo",',
    '  "scripts": { "build": "tsc", "test": "vitest" },',
    '  "dependencies": {',
    '    "react": "^18.3.1",',
    '    "@types/node": "20.16.10"',
    '  }',
    '}',
    '',
  ].join('\n');

  it('gives the top-level keys of package.json, and its scripts and dependencies under them', async () => {
    const result = await analyze('package.json', pkg);
    expect(keyRanges(result)).toEqual({
      name: '2:2-2:16',
      scripts: '3:2-3:49',
      'scripts.build': '3:15-3:29',
      'scripts.test': '3:31-3:47',
      dependencies: '4:2-7:3',
      'dependencies.react': '5:4-5:22',
      'dependencies."@types/node"': '6:4-6:29',
    });
    const k = keys(result);
    expect(k.get('name')?.skeleton).toBe('"name": "demo"');
    expect(k.get('scripts')?.skeleton).toBe('"scripts": { build, test }');
    expect(k.get('dependencies."@types/node"')?.name).toBe('@types/node');
    expect(containsEdges(result)).toContain('dependencies -> dependencies."@types/node"');
    expect(containsEdges(result)).toContain('<file> -> name');
    expect(result.diagnostics!).toEqual([]);
  });

  it('lists only top-level keys in other JSON files', async () => {
    const result = await analyze('config/app.json', pkg);
    expect([...keys(result).keys()]).toEqual(['name', 'scripts', 'dependencies']);
  });

  it('counts columns in UTF-8 bytes', async () => {
    const result = await analyze('fr.json', '{\n  "réglages": { "thème": 1 },\n  "é": "ü"\n}\n');
    // `"réglages"` is 10 characters but 11 bytes; `"thème"` 7 and 8.
    expect(keyRanges(result)).toEqual({ réglages: '2:2-2:30', é: '3:2-3:12' });
  });

  it('counts the byte order mark on the first line', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a": 1,\n "b": 2}')]);
    expect(keyRanges(await analyze('appsettings.json', bom))).toEqual({ a: '1:4-1:10', b: '2:1-2:7' });
  });

  it('accepts trailing commas and comments in tsconfig files, not in package.json', async () => {
    const text = '{\n  // base\n  "compilerOptions": { "strict": true, },\n  "include": ["src",],\n}\n';
    const tsconfig = await analyze('tsconfig.base.json', text);
    expect([...keys(tsconfig).keys()]).toEqual(['compilerOptions', 'include']);
    expect(tsconfig.diagnostics!).toEqual([]);
    expect(keys(tsconfig).get('compilerOptions')?.skeleton).toBe('// base\n"compilerOptions": { strict }');
    const strict = await analyze('package.json', text);
    expect([...keys(strict).keys()]).toEqual(['compilerOptions', 'include']);
    expect(strict.diagnostics!.map((d) => d.code)).toEqual(['PARSE_ERRORS']);
  });

  it('keeps the keys before a syntax error and warns, without inventing documents', async () => {
    const result = await analyze('package.json', '{\n  "name": "x",\n  "main": "a.js"\n  "scripts": { "start": "node a.js" }\n}\n');
    expect([...keys(result).keys()]).toEqual(['name', 'main']);
    expect(result.diagnostics!).toHaveLength(1);
    expect(result.diagnostics![0]).toMatchObject({ severity: 'warning', code: 'PARSE_ERRORS' });
    expect(result.diagnostics![0]!.range?.startLine).toBe(3);
  });

  it('reads each of several top-level values as a document, with a warning', async () => {
    const result = await analyze('events.json', '{"a": 1}\n{"a": 2, "b": 3}\n');
    expect(keyRanges(result)).toEqual({ a: '1:1-1:7', 'doc#2.a': '2:1-2:7', 'doc#2.b': '2:9-2:15' });
    expect(result.diagnostics!.map((d) => d.code)).toEqual(['MULTIPLE_VALUES']);
  });

  it('gives a file node and nothing else for an array, an empty file or a scalar', async () => {
    for (const text of ['[1, 2]', '', '"x"']) {
      const result = await analyze('data.json', text);
      expect(result.nodes.map((n) => n.kind)).toEqual(['file']);
      expect(result.diagnostics!).toEqual([]);
    }
  });

  it(`lists at most ${MAX_KEYS_PER_PARENT} keys under one parent, and says so`, async () => {
    const big = `{${Array.from({ length: 1500 }, (_, i) => `"k${i}": ${i}`).join(',\n')}}`;
    const result = await analyze('translations.json', big);
    expect(keys(result).size).toBe(MAX_KEYS_PER_PARENT);
    expect(result.diagnostics!).toEqual([
      { severity: 'info', code: 'KEYS_TRUNCATED', message: `only the first ${MAX_KEYS_PER_PARENT} keys are listed under the file (1500)` },
    ]);
  });
});

describe('YAML', () => {
  const compose = ['services:', '  web:', '    image: nginx', '  db:', '    image: postgres', 'volumes:', '  data:', ''].join('\n');

  it('gives the top-level keys of a Compose file, and its services and volumes under them', async () => {
    const result = await analyze('docker-compose.yml', compose);
    expect(keyRanges(result)).toEqual({
      services: '1:0-5:19',
      'services.web': '2:2-3:16',
      'services.db': '4:2-5:19',
      volumes: '6:0-7:7',
      'volumes.data': '7:2-7:7',
    });
    expect(keys(result).get('services')?.skeleton).toBe('services: { web, db }');
    expect(keys(result).get('services.web')?.skeleton).toBe('web: { image }');
    expect(result.diagnostics!).toEqual([]);
  });

  it('reads the file as YAML by its extension whatever language it was sent with', async () => {
    const result = await analyze('compose.yaml', compose, 'xml');
    expect(keys(result).has('services.db')).toBe(true);
  });

  it('lists only top-level keys of YAML files that are not well known', async () => {
    expect([...keys(await analyze('config/app.yml', compose)).keys()]).toEqual(['services', 'volumes']);
  });

  it('tells the documents of a multi-document file apart by signature', async () => {
    const result = await analyze('k8s.yaml', '# deployment\nkind: Deployment\nspec: {}\n---\nkind: Service\nports:\n  - 80\n');
    expect(keyRanges(result)).toEqual({ kind: '2:0-2:16', spec: '3:0-3:8', 'doc#2.kind': '5:0-5:13', 'doc#2.ports': '6:0-7:6' });
    const k = keys(result);
    expect(k.get('kind')?.skeleton).toBe('# deployment\nkind: Deployment');
    expect(k.get('doc#2.kind')?.name).toBe('kind');
    expect(k.get('doc#2.kind')?.qualifiedName).toBe('doc#2.kind');
    expect(k.get('doc#2.ports')?.skeleton).toBe('ports: [ 80 ]');
  });

  it('finds the jobs of a GitHub workflow by its directory or by its `on` and `jobs` keys', async () => {
    const workflow = 'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n  test:\n    needs: build\n';
    for (const path of ['.github/workflows/ci.yml', 'ci/pipeline.yaml']) {
      const k = keys(await analyze(path, workflow));
      expect(at(k.get('jobs.build')?.range), path).toBe('4:2-5:26');
      expect(at(k.get('jobs.test')?.range), path).toBe('6:2-7:16');
    }
    // CircleCI has `jobs` too, but no `on`: not a GitHub workflow.
    const circle = await analyze('.circleci/config.yml', 'version: 2.1\njobs:\n  build:\n    docker: []\n');
    expect([...keys(circle).keys()]).toEqual(['version', 'jobs']);
  });

  it('decodes quoted keys, and reads keys with anchors, tags, flow mappings and complex keys', async () => {
    const text =
      "\"quoted key\": 1\n'it''s': 2\nbase: &base\n  a: 1\nderived:\n  <<: *base\nflow: {x: 1, y}\n? [p, q]\n: z\ntagged: !!str 5\n";
    const result = await analyze('odd.yaml', text);
    expect([...keys(result).keys()]).toEqual(['"quoted key"', '"it\'s"', 'base', 'derived', 'flow', '"[p, q]"', 'tagged']);
    const k = keys(result);
    expect(k.get('base')?.skeleton).toBe('base: { a }');
    expect(k.get('flow')?.skeleton).toBe('flow: { x, y }');
    expect(k.get('tagged')?.skeleton).toBe('tagged: 5');
    expect(at(k.get('"[p, q]"')?.range)).toBe('8:0-9:3');
  });

  it('shows the first line of a block scalar and truncates long values', async () => {
    const result = await analyze('x.yaml', `script: |\n  npm ci\n  npm test\nlong: ${'x'.repeat(200)}\n`);
    const k = keys(result);
    expect(k.get('script')?.skeleton).toBe('script: | npm ci …');
    expect(k.get('long')?.skeleton).toBe(`long: ${'x'.repeat(79)}…`);
    expect(at(k.get('script')?.range)).toBe('1:0-3:10');
  });

  it('reads the keys of a broken file from its indentation and warns where it broke', async () => {
    const text = 'server:\n  host: a\n   port: 1\ndatabase:\n  url: x\n---\nother: [1, 2\n';
    const result = await analyze('config.yaml', text);
    expect(keyRanges(result)).toEqual({ server: '1:0-3:10', database: '4:0-5:8', 'doc#2.other': '7:0-7:12' });
    expect(keys(result).get('server')?.skeleton).toBe('server: { host }');
    expect(result.diagnostics!).toHaveLength(1);
    expect(result.diagnostics![0]).toMatchObject({ code: 'PARSE_ERRORS', severity: 'warning' });
    expect(result.diagnostics![0]!.message).toContain('read from the indentation');
  });

  it('keeps well-known children when a Compose file is broken', async () => {
    const result = await analyze(
      'docker-compose.yml',
      'services:\n  web:\n    image: x\n  db:\n   image: y\n    ports: [1\nvolumes:\n  data:\n',
    );
    expect([...keys(result).keys()]).toEqual(['services', 'volumes', 'services.web', 'services.db', 'volumes.data']);
    expect(result.diagnostics!.map((d) => d.code)).toEqual(['PARSE_ERRORS']);
  });
});

describe('TOML', () => {
  const cargo = [
    '[package]',
    'name = "x"',
    '',
    '[dependencies]',
    'serde = { version = "1", features = ["derive"] }',
    'tokio.workspace = true',
    'tokio.features = ["full"]',
    '',
    "[target.'cfg(windows)'.dev-dependencies]",
    'winapi = "0.3"',
    '',
    '[[bin]]',
    'name = "a"',
    '[[bin]]',
    'name = "b"',
    '',
  ].join('\n');

  it('gives top-level pairs and table headers, and the dependencies of Cargo.toml under their tables', async () => {
    const result = await analyze('Cargo.toml', `edition = "2021"\n${cargo}`);
    expect(keyRanges(result)).toEqual({
      edition: '1:0-1:16',
      package: '2:0-3:10',
      dependencies: '5:0-8:25',
      'dependencies.serde': '6:0-6:48',
      'dependencies.tokio': '7:0-7:22',
      'target."cfg(windows)".dev-dependencies': '10:0-11:14',
      'target."cfg(windows)".dev-dependencies.winapi': '11:0-11:14',
      bin: '13:0-14:10',
      'bin@2': '15:0-16:10',
    });
    const k = keys(result);
    expect(k.get('dependencies')?.skeleton).toBe('[dependencies] { serde, tokio.workspace, tokio.features }');
    expect(k.get('dependencies.serde')?.skeleton).toBe('serde = { version, features }');
    expect(k.get('target."cfg(windows)".dev-dependencies')?.name).toBe('target.cfg(windows).dev-dependencies');
    expect(k.get('bin@2')?.skeleton).toBe('[[bin]] { name }');
    expect(result.diagnostics!).toEqual([]);
  });

  it('gives the requirements of pyproject.toml by distribution name, with the range of each string', async () => {
    const text = [
      '[project]',
      'name = "p"',
      'dependencies = [',
      '  "requests[socks]>=2.31",',
      '  "attrs; python_version < \'3.12\'",',
      ']',
      '',
      '[project.optional-dependencies]',
      'test = ["pytest>=8"]',
      '',
      '[tool.poetry.group.dev.dependencies]',
      'black = "^24"',
      '',
    ].join('\n');
    const result = await analyze('pyproject.toml', text);
    expect(keyRanges(result)).toEqual({
      project: '1:0-6:1',
      'project.dependencies': '3:0-6:1',
      'project.dependencies.requests': '4:2-4:25',
      'project.dependencies.attrs': '5:2-5:34',
      'project.optional-dependencies': '8:0-9:20',
      'project.optional-dependencies.test': '9:0-9:20',
      'project.optional-dependencies.test.pytest': '9:8-9:19',
      'tool.poetry.group.dev.dependencies': '11:0-12:13',
      'tool.poetry.group.dev.dependencies.black': '12:0-12:13',
    });
    expect(keys(result).get('project.dependencies.requests')?.skeleton).toBe('"requests[socks]>=2.31"');
    expect(containsEdges(result)).toContain('project -> project.dependencies');
    expect(containsEdges(result)).toContain('project.dependencies -> project.dependencies.requests');
  });

  it('keeps the keys around a broken value and warns', async () => {
    const result = await analyze('Cargo.toml', '[package]\nname = "x"\nversion =\n\n[dependencies]\nanyhow = "1"\n');
    expect([...keys(result).keys()]).toEqual(['package', 'dependencies', 'dependencies.anyhow']);
    expect(result.diagnostics!.map((d) => `${d.code} ${at(d.range)}`)).toEqual(['PARSE_ERRORS 3:0-3:9']);
  });
});

describe('XML', () => {
  const pom = [
    '<?xml version="1.0"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0">',
    '  <artifactId>app</artifactId>',
    '  <dependencies>',
    '    <dependency><groupId>org.x</groupId><artifactId>core</artifactId><version>1.0</version></dependency>',
    '    <dependency><groupId>org.y</groupId><artifactId>test-kit</artifactId><scope>test</scope></dependency>',
    '  </dependencies>',
    '</project>',
    '',
  ].join('\n');

  it('gives the root element, its children, and the dependencies of a Maven POM', async () => {
    const result = await analyze('pom.xml', pom);
    expect(keyRanges(result)).toEqual({
      project: '2:0-8:10',
      'project.artifactId': '3:2-3:30',
      'project.dependencies': '4:2-7:17',
      'project.dependencies."org.x:core"': '5:4-5:104',
      'project.dependencies."org.y:test-kit"': '6:4-6:105',
    });
    const k = keys(result);
    expect(k.get('project.artifactId')?.skeleton).toBe('<artifactId>app</artifactId>');
    expect(k.get('project.dependencies')?.skeleton).toBe('<dependencies> { dependency ×2 }');
    expect(k.get('project.dependencies."org.x:core"')?.skeleton).toBe('org.x:core:1.0');
    expect(k.get('project.dependencies."org.y:test-kit"')?.skeleton).toBe('org.y:test-kit (test)');
    expect(result.diagnostics!).toEqual([]);
  });

  it('gives each repeated child its own node, and MSBuild package references under their item group', async () => {
    const csproj = [
      '<Project Sdk="Microsoft.NET.Sdk">',
      '  <ItemGroup><PackageReference Include="Serilog" Version="3.1.1" /></ItemGroup>',
      '  <ItemGroup Condition="x"><ProjectReference Include="../Core/Core.csproj" /></ItemGroup>',
      '</Project>',
    ].join('\n');
    const result = await analyze('src/App.csproj', csproj);
    expect(keyRanges(result)).toEqual({
      Project: '1:0-4:10',
      'Project.ItemGroup': '2:2-2:79',
      'Project.ItemGroup.Serilog': '2:13-2:67',
      'Project.ItemGroup@2': '3:2-3:89',
      'Project.ItemGroup@2."../Core/Core.csproj"': '3:27-3:77',
    });
    expect(keys(result).get('Project.ItemGroup@2')?.skeleton).toBe('<ItemGroup Condition="x"> { ProjectReference }');
  });

  it('keeps what it read from a file that is not well-formed and warns', async () => {
    const result = await analyze('web.config', '<configuration>\n  <appSettings>\n    <add key="a"/>\n  <system.web/>\n', 'xml');
    expect(keyRanges(result)).toEqual({ configuration: '1:0-4:15', 'configuration.appSettings': '2:2-4:15' });
    expect(result.diagnostics!).toHaveLength(1);
    expect(result.diagnostics![0]).toMatchObject({ severity: 'warning', code: 'PARSE_ERRORS' });
    expect(result.diagnostics![0]!.message).toContain('unclosed tag');
  });

  it('gives a file node and nothing else for an empty file', async () => {
    const result = await analyze('empty.xml', '\n');
    expect(result.nodes.map((n) => n.kind)).toEqual(['file']);
    expect(result.diagnostics!).toEqual([]);
  });

  it('resolves no external entity', async () => {
    const xxe = '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r><a>&x;</a></r>\n';
    const result = await analyze('evil.xml', xxe);
    // saxes reads no DTD: the entity stays as written, with an "undefined entity" warning.
    expect(keys(result).get('r.a')?.skeleton).toBe('<a>&x;</a>');
    expect(JSON.stringify(result)).not.toContain('root:');
    expect(result.diagnostics!.map((d) => d.code)).toEqual(['PARSE_ERRORS']);
  });
});
