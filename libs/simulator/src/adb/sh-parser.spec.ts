import { decodeInputText, keyCodeFromString } from './input-command';
import { expandWord, parseScript, type SimpleCommand } from './sh-parser';

const ENV: Record<string, string> = { HOME: '/', EMPTY: '', TWO: 'a  b', '?': '3' };
const lookup = (name: string): string => ENV[name] ?? '';

/** The argument lists of every simple command of the script, in order. */
function argv(script: string): string[][] {
  const parsed = parseScript(script);
  if (parsed.error) throw parsed.error;
  return parsed.lines.flatMap((line) => line.flatMap((list) => [list.first, ...list.rest.map((r) => r.pipeline)].flatMap((p) => p.map((c) => c.words.flatMap((w) => expandWord(w, lookup))))));
}

function firstCommand(script: string): SimpleCommand {
  return parseScript(script).lines[0]?.[0]?.first[0] as SimpleCommand;
}

describe('device shell word splitting and unescaping', () => {
  it.each([
    ['input text hello', ['input', 'text', 'hello']],
    ["input text 'a b'", ['input', 'text', 'a b']],
    ['input text "a b"', ['input', 'text', 'a b']],
    ['input text a\\ b', ['input', 'text', 'a b']],
    ["echo 'it'\\''s'", ['echo', "it's"]],
    ['echo "say \\"hi\\" \\$HOME \\\\ \\n"', ['echo', 'say "hi" $HOME \\ \\n']],
    ["echo '$HOME \\n \"'", ['echo', '$HOME \\n "']],
    ['echo $HOME "$HOME" ${HOME}x', ['echo', '/', '/', '/x']],
    ['echo $TWO "$TWO"', ['echo', 'a', 'b', 'a  b']],
    ['echo $EMPTY "" \'\' x$EMPTY', ['echo', '', '', 'x']],
    ['echo price$5 100$', ['echo', 'price', '100$']],
    ['echo $?', ['echo', '3']],
    ['echo a#b #comment', ['echo', 'a#b']],
    ['echo a\\\nb', ['echo', 'ab']],
  ])('%s', (script, expected) => {
    expect(argv(script)).toEqual([expected]);
  });

  it('splits commands at ; & && || | and newlines, so an unquoted & ends a command', () => {
    expect(argv('input text Tom&Jerry')).toEqual([['input', 'text', 'Tom'], ['Jerry']]);
    expect(argv('a; b && c || d | e\nf')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f']]);
    expect(argv("echo 'a;b&c|d'")).toEqual([['echo', 'a;b&c|d']]);
  });

  it('reads redirections with and without a descriptor number', () => {
    const command = firstCommand('screencap -p 2>/dev/null >/sdcard/s.png 2>&1 < in');
    expect(command.words.map((w) => expandWord(w, lookup))).toEqual([['screencap'], ['-p']]);
    expect(command.redirects.map((r) => [r.fd, r.op, expandWord(r.target, lookup).join('')])).toEqual([
      [2, '>', '/dev/null'],
      [1, '>', '/sdcard/s.png'],
      [2, '>&', '1'],
      [0, '<', 'in'],
    ]);
  });

  it('takes NAME=value before a command as an assignment', () => {
    const command = firstCommand('A=1 B="x y" cmd C=2');
    expect(command.assignments.map((a) => [a.name, expandWord(a.value, lookup)])).toEqual([
      ['A', ['1']],
      ['B', ['x y']],
    ]);
    expect(command.words.map((w) => expandWord(w, lookup).join(''))).toEqual(['cmd', 'C=2']);
  });

  it.each([
    ["input text O'Brien", 'no closing quote'],
    ['echo "abc', 'no closing quote'],
    ['echo (a)', "syntax error: '(' unexpected"],
    ['a && ', 'syntax error: unexpected EOF'],
    ['; a', "syntax error: ';' unexpected"],
    ['echo $(id)', 'command substitution ($(…)) is not supported by the simulated shell'],
    ['echo `id`', 'command substitution (`…`) is not supported by the simulated shell'],
    ['if true; then echo; fi', "'if': compound commands are not supported by the simulated shell"],
    ['echo ${a b}', '${a b}: bad substitution'],
  ])('%s is a syntax error: %s', (script, message) => {
    expect(parseScript(script).error?.message).toBe(message);
  });

  it('keeps the lines before a syntax error, as mksh runs them', () => {
    const parsed = parseScript("echo one\necho 'two");
    expect(parsed.lines).toHaveLength(1);
    expect(parsed.error).toMatchObject({ code: 'SHELL_SYNTAX_ERROR', message: 'no closing quote' });
  });
});

describe('input text decoding (Android InputShellCommand)', () => {
  it.each([
    ['hello%sworld', 'hello world'],
    ['%s%s', '  '],
    ['100%', '100%'],
    ['100%%s', '100% '],
    ['50%off', '50%off'],
    ['a%Sb', 'a%Sb'],
    ['%', '%'],
  ])('%s types %j', (arg, typed) => {
    expect(decodeInputText(arg)).toBe(typed);
  });

  it('reads key codes by number first, then by name with or without KEYCODE_; anything else is 0', () => {
    expect([keyCodeFromString('KEYCODE_BACK'), keyCodeFromString('HOME'), keyCodeFromString('67'), keyCodeFromString('KEYCODE_A'), keyCodeFromString('NOPE'), keyCodeFromString('8'), keyCodeFromString('KEYCODE_8')]).toEqual([4, 3, 67, 29, 0, 8, 15]);
  });
});
