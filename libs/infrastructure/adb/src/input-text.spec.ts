import { spawnSync } from 'node:child_process';
import { canTypeWithInputText, inputTextCommand, inputTextCommands, shellQuote } from './input-text';

/** Android's `input text` argument handling (Input.sendText): every `%s` becomes a space, nothing else changes. */
function androidInputText(arg: string): string {
  const buff = arg.split('');
  let escape = false;
  for (let i = 0; i < buff.length; i++) {
    if (escape) {
      escape = false;
      if (buff[i] === 's') {
        buff[i] = ' ';
        buff.splice(--i, 1);
      }
    }
    if (buff[i] === '%') escape = true;
  }
  return buff.join('');
}

/**
 * What the phone would type for `command`: the command run by a POSIX shell (`sh -c`, as adbd runs
 * it) with `input` replaced by a function that records its arguments, each `input text` argument
 * then read as Android does.
 */
function typedBy(command: string): string {
  const run = spawnSync('sh', ['-c', `input() { shift; printf '%s\\0' "$@"; }; ${command}`], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout
    .split('\0')
    .slice(0, -1)
    .map(androidInputText)
    .join('');
}

describe('inputTextCommand: text for `input text` through the device shell', () => {
  it.each([
    ['plain word', 'hello', "input text 'hello'"],
    ['spaces become %s', 'hi there you', "input text 'hi%sthere%syou'"],
    ['double quotes', 'say "hi"', `input text 'say%s"hi"'`],
    ['single quotes', "it's", `input text 'it'\\''s'`],
    ['ampersand', 'Tom & Jerry', "input text 'Tom%s&%sJerry'"],
    ['semicolon', 'a;b', "input text 'a;b'"],
    ['percent not before s', '100% sure', "input text '100%%ssure'"],
    ['percent before s splits the call', '50%sale', "input text '50%' && input text 'sale'"],
    ['backslash', 'C:\\path\\n', "input text 'C:\\path\\n'"],
    ['dollar and variable syntax', '$HOME ${PATH}', "input text '$HOME%s${PATH}'"],
    ['backtick command substitution', '`reboot`', "input text '`reboot`'"],
    ['parentheses and redirections', '(a) <b> | c', "input text '(a)%s<b>%s|%sc'"],
    ['glob and home', '*.txt ~ ? [x]', "input text '*.txt%s~%s?%s[x]'"],
    ['comment and bang', '#tag !x', "input text '#tag%s!x'"],
    ['newline', 'line1\nline2', "input text 'line1\nline2'"],
  ])('%s', (_name, text, command) => {
    expect(inputTextCommand(text)).toBe(command);
    expect(typedBy(command)).toBe(text);
  });

  it('types every printable ASCII character exactly, in one string', () => {
    const all = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    expect(typedBy(inputTextCommand(all))).toBe(all);
    expect(typedBy(inputTextCommand(`%s %%s s% %`))).toBe('%s %%s s% %');
  });

  it('refuses empty text and text input text cannot type', () => {
    expect(() => inputTextCommand('')).toThrow(RangeError);
    expect(() => inputTextCommand('héllo')).toThrow('input text types printable ASCII and newlines only');
    expect(canTypeWithInputText('Hello, World! 123 ~`')).toBe(true);
    expect(canTypeWithInputText('你好')).toBe(false);
    expect(canTypeWithInputText('👋')).toBe(false);
    expect(canTypeWithInputText('tab\there')).toBe(false);
  });

  it('shellQuote makes one literal word of anything', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(shellQuote('')).toBe("''");
  });
});

describe('inputTextCommands: long text as several `input text` commands', () => {
  it('cuts 2500 characters into 3 commands of at most 1000 source characters, escaping each piece', () => {
    const text = `${'x'.repeat(1000)}${' '.repeat(1000)}${'%s'.repeat(250)}`;
    const commands = inputTextCommands(text);
    expect(commands).toEqual([
      `input text '${'x'.repeat(1000)}'`,
      `input text '${'%s'.repeat(1000)}'`,
      ["input text '%'", ...Array.from({ length: 249 }, () => "input text 's%'"), "input text 's'"].join(' && '),
    ]);
    expect(commands.map(typedBy).join('')).toBe(text);
  });

  it('types a % ending one piece and an s starting the next as themselves', () => {
    expect(inputTextCommands('abc%sde f', 4)).toEqual(["input text 'abc%'", "input text 'sde%s'", "input text 'f'"]);
    expect(inputTextCommands('abc%sde f', 4).map(typedBy).join('')).toBe('abc%sde f');
    expect(inputTextCommands('short text')).toEqual(["input text 'short%stext'"]);
  });

  it('refuses empty text, text input text cannot type and a bad piece size, building nothing', () => {
    expect(() => inputTextCommands('')).toThrow('there is no text to type');
    expect(() => inputTextCommands(`${'a'.repeat(5000)}é`)).toThrow('input text types printable ASCII and newlines only');
    expect(() => inputTextCommands('abc', 0)).toThrow('maxChars must be a positive integer, got 0');
  });
});
