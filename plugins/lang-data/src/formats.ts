/** The four formats this plugin reads. Each is also the language id the host assigns. */
export const DATA_FORMATS = ['json', 'yaml', 'toml', 'xml'] as const;
export type DataFormat = (typeof DATA_FORMATS)[number];

/**
 * Extension → format. Every key is in the manifest's `extensions`, and the host maps each to
 * the same language: the well-known ones by its table (`.yml` → yaml), the others (MSBuild,
 * NuGet, Maven) to the manifest's first language, `xml` (see test/formats.test.ts).
 */
export const EXTENSION_FORMATS: Readonly<Record<string, DataFormat>> = {
  '.json': 'json',
  '.jsonc': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'toml',
  '.xml': 'xml',
  '.xsd': 'xml',
  '.xsl': 'xml',
  '.xslt': 'xml',
  '.csproj': 'xml',
  '.fsproj': 'xml',
  '.vbproj': 'xml',
  '.props': 'xml',
  '.targets': 'xml',
  '.nuspec': 'xml',
  '.pom': 'xml',
};

function isDataFormat(s: string): s is DataFormat {
  return (DATA_FORMATS as readonly string[]).includes(s);
}

/**
 * The format of a file: by its extension (the file's own word on it), else by the language
 * the host assigned, else by its first significant character.
 *
 * @example
 * ```ts
 * formatOf('compose.yml', 'xml', ''); // 'yaml': the extension wins over a mislabelled language
 * ```
 */
export function formatOf(path: string, language: string, text: string): DataFormat {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    const extension = name.slice(dot);
    if (Object.hasOwn(EXTENSION_FORMATS, extension)) return EXTENSION_FORMATS[extension]!;
  }
  if (isDataFormat(language)) return language;
  const first = /\S/.exec(text)?.[0];
  if (first === '<') return 'xml';
  if (first === '{' || first === '[') return 'json';
  return 'yaml';
}
