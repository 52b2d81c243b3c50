import { COMMAND_DTOS, validateDto } from '@mobileclaw/trigger-rest';
import { CLI_EXIT, CliError } from './exit-codes';
import { commandUsageLines, parseCommandArguments } from './command-arguments';

/** The usage error `parseCommandArguments` throws for these words, as `{message, exitCode}`. */
function refusal(name: string, words: string[], flags: { clear?: boolean } = {}): { message: string; exitCode: number } {
  try {
    parseCommandArguments(name, words, flags);
  } catch (error) {
    if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
    throw error;
  }
  throw new Error(`accepted ${name} ${words.join(' ')}`);
}

describe('parseCommandArguments (mobileclaw do)', () => {
  it('turns the words of each command into its protocol body', () => {
    expect(parseCommandArguments('click', ['540', '1200'])).toEqual({ command: 'click', x: 540, y: 1200 });
    expect(parseCommandArguments('long_press', ['10', '20', '800'])).toEqual({ command: 'long_press', x: 10, y: 20, durationMs: 800 });
    expect(parseCommandArguments('long_press', ['10', '20'])).toEqual({ command: 'long_press', x: 10, y: 20 });
    expect(parseCommandArguments('swipe', ['540', '1800', '540', '600', '300'])).toEqual({ command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 600, durationMs: 300 });
    expect(parseCommandArguments('open', ['com.android.settings'])).toEqual({ command: 'open', app: 'com.android.settings' });
    expect(parseCommandArguments('input', ['héllo wörld 👋'], { clear: true })).toEqual({ command: 'input', text: 'héllo wörld 👋', clear: true });
    expect(parseCommandArguments('input', [''])).toEqual({ command: 'input', text: '' });
    for (const name of ['back', 'home', 'ui_tree', 'screenshot']) expect(parseCommandArguments(name, [])).toEqual({ command: name });
  });

  it('refuses what the gateway would refuse, naming the command and the argument, before anything is sent', () => {
    expect(refusal('tap', ['1', '2'])).toEqual({ message: 'unknown command "tap"; the commands are open, click, long_press, swipe, input, back, home, screenshot, ui_tree', exitCode: CLI_EXIT.usage });
    expect(refusal('click', ['540'])).toEqual({ message: 'click takes 2 arguments (click <x> <y>), got 1', exitCode: CLI_EXIT.usage });
    expect(refusal('click', ['1', '2', '3']).message).toBe('click takes 2 arguments (click <x> <y>), got 3');
    expect(refusal('swipe', ['1', '2', '3']).message).toBe('swipe takes 4 to 5 arguments (swipe <x1> <y1> <x2> <y2> [durationMs]), got 3');
    expect(refusal('home', ['now']).message).toBe('home takes 0 arguments (home), got 1');
    expect(refusal('click', ['540', '12a']).message).toBe('click: y must be an integer from 0 to 100000 (device px), got "12a"');
    expect(refusal('click', ['-1', '5']).message).toBe('click: x must be an integer from 0 to 100000 (device px), got "-1"');
    expect(refusal('click', ['100001', '5']).message).toBe('click: x must be an integer from 0 to 100000 (device px), got "100001"');
    expect(refusal('click', ['1.5', '5']).message).toBe('click: x must be an integer from 0 to 100000 (device px), got "1.5"');
    expect(refusal('long_press', ['1', '2', '0']).message).toBe('long_press: durationMs must be an integer from 1 to 60000 (ms), got "0"');
    expect(refusal('open', ['settings']).message).toBe('open: app must be an Android package name such as com.android.settings, got "settings"');
    expect(refusal('input', ['x'.repeat(100_001)]).message).toBe('input: text must be at most 100000 characters, got 100001');
    expect(refusal('click', ['1', '2'], { clear: true }).message).toBe('--clear applies to input only, not click');
  });

  it("builds bodies the gateway's REST validation accepts, at the edges of every range", () => {
    const bodies = [
      parseCommandArguments('click', ['0', '100000']),
      parseCommandArguments('long_press', ['0', '0', '60000']),
      parseCommandArguments('swipe', ['100000', '0', '0', '100000', '1']),
      parseCommandArguments('open', ['a.b_c.D9']),
      parseCommandArguments('input', ['x'.repeat(100_000)], { clear: true }),
      ...['back', 'home', 'ui_tree', 'screenshot'].map((name) => parseCommandArguments(name, [])),
    ];
    for (const body of bodies) expect(() => validateDto(COMMAND_DTOS[body.command], body)).not.toThrow();
  });

  it('lists each command with its arguments for --help', () => {
    expect(commandUsageLines()).toEqual([
      'open <app>',
      'click <x> <y>',
      'long_press <x> <y> [durationMs]',
      'swipe <x1> <y1> <x2> <y2> [durationMs]',
      'input <text>',
      'back',
      'home',
      'screenshot',
      'ui_tree',
    ]);
  });
});
