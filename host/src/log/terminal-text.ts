/**
 * Control characters a terminal acts on: C0 except tab and newline (ESC starts CSI/OSC
 * sequences that clear the screen, set the title or write to the clipboard; BEL, backspace
 * and carriage return overwrite what was shown), DEL, C1 (U+009B is a one-character CSI
 * for some terminals), and the bidirectional controls of "Trojan Source" (CVE-2021-42574)
 * that make shown text differ from the bytes: U+061C, U+200E–U+200F, U+202A–U+202E,
 * U+2066–U+2069.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * How one unsafe character is shown: a C0 control as its Unicode control picture (␛ for
 * ESC, ␇ for BEL), anything else as a `\u202e` escape. The escape form keeps JSON output
 * lossless: JSON.stringify escapes C0 itself but leaves DEL, C1 and bidi controls raw, and
 * `\u202e` inside a JSON string parses back to the very character.
 */
function visible(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c < 0x20) return String.fromCharCode(0x2400 + c);
  return `\\u${c.toString(16).padStart(4, '0')}`;
}

/**
 * Text from plugins, file names or repository content made safe to print on a terminal:
 * every control character and bidi override is replaced by a visible stand-in
 * (`\x1b[2J` → `␛[2J`, BEL → `␇`, U+202E → `\u202e`). Newlines and tabs stay, so code
 * snippets and multi-line messages keep their shape.
 *
 * @example
 * terminalText('ok\x1b]0;pwned\x07\n'); // 'ok␛]0;pwned␇\n'
 * terminalText(JSON.stringify({ name: 'a\u202eb' })); // '{"name":"a\\u202eb"}', still the same JSON value
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}
