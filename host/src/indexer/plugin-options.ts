/**
 * The options of one plugin, from the `plugins.options` configuration key (`"<plugin id>.<option>"
 * → value`), for its `initialize.options`; undefined when the user set none for it.
 *
 * @example
 * ```ts
 * pluginOptionsFor('lang-python', { 'lang-python.scipPython': 'true', 'lang-go.x': '1' }); // { scipPython: 'true' }
 * ```
 */
export function pluginOptionsFor(
  pluginId: string,
  options: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const [key, value] of Object.entries(options ?? {})) {
    // The option is after the last dot: a plugin id may hold dots, an option name does not.
    const dot = key.lastIndexOf('.');
    if (dot <= 0 || key.slice(0, dot) !== pluginId) continue;
    (out ??= {})[key.slice(dot + 1)] = value;
  }
  return out;
}
