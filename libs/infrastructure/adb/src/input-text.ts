/**
 * Typing text through Android's `input text`, exactly.
 *
 * Two layers interpret the text on its way to the focused field:
 *
 * 1. The device shell (`/system/bin/sh -c`, mksh): every argument is single-quoted, the one quoting
 *    in which no character is special (`$`, backtick, `\`, `"`, `;`, `&`, `|`, `<`, `>`, `(`, `)`,
 *    `*`, `?`, `[`, `~`, `#`, `!`, `{`, newline… stay literal); a `'` inside becomes `'\''` (close
 *    the quote, an escaped quote, reopen).
 * 2. `input text` itself: it types each character through the virtual keyboard's key map, which has
 *    keys for printable ASCII and newline only, and first turns every `%s` into a space (spaces
 *    cannot be typed literally by older versions, which take only the first argument). So a space
 *    is sent as `%s`; a `%` right before an `s` cannot be sent in the same call (it would become a
 *    space), so the text is split there into two `input text` calls, the first ending in `%` and the
 *    next starting with `s`.
 *
 * Anything else (non-ASCII, tabs, control characters) cannot be typed by `input text` at all: see
 * {@link canTypeWithInputText}.
 *
 * A long text is typed by several commands (see {@link inputTextCommands}): adb sends a shell
 * command as one request of at most 64 KiB (old Android versions take far less), and each space
 * grows to `%s` on the way.
 */

/** Source characters typed by one `input text` command line, at most (≤ 2 bytes each once escaped, plus quoting). */
export const INPUT_TEXT_CHUNK_CHARS = 1000;

/** Characters `input text` types as themselves: printable ASCII (space to `~`) and newline (Enter). */
const INPUT_TEXT_CHARS = /^[\x20-\x7e\n]*$/;

/** Whether `input text` can type `text` exactly (printable ASCII and newlines only). */
export function canTypeWithInputText(text: string): boolean {
  return INPUT_TEXT_CHARS.test(text);
}

/** `value` as one word for the device shell: single-quoted, each `'` as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell command that types `text` with `input text`: one `input text '<chunk>'` per chunk
 * joined by `&&`, spaces as `%s`, split between a `%` and a following `s`.
 *
 * @throws RangeError when `text` is empty or has a character `input text` cannot type (check
 *   {@link canTypeWithInputText} first).
 */
export function inputTextCommand(text: string): string {
  if (text === '') throw new RangeError('there is no text to type');
  if (!canTypeWithInputText(text)) throw new RangeError('input text types printable ASCII and newlines only');
  const chunks = text.split(/(?<=%)(?=s)/);
  return chunks.map((chunk) => `input text ${shellQuote(chunk.replace(/ /g, '%s'))}`).join(' && ');
}

/**
 * The shell commands that type `text` one after another, each the {@link inputTextCommand} of a
 * piece of at most `maxChars` source characters. Pieces are cut before escaping, so a space's `%s`
 * is never split, and a `%` ending one piece cannot meet the `s` starting the next (each command
 * decodes its own argument). The text is printable ASCII, so no cut falls inside a surrogate pair.
 *
 * @throws RangeError as {@link inputTextCommand} (before any command is built), or when `maxChars`
 *   is not a positive integer.
 */
export function inputTextCommands(text: string, maxChars = INPUT_TEXT_CHUNK_CHARS): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  if (text === '') throw new RangeError('there is no text to type');
  if (!canTypeWithInputText(text)) throw new RangeError('input text types printable ASCII and newlines only');
  const commands: string[] = [];
  for (let start = 0; start < text.length; start += maxChars) commands.push(inputTextCommand(text.slice(start, start + maxChars)));
  return commands;
}
