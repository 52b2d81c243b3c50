import { COMMAND_NAMES, type Command, type CommandName } from '@mobileclaw/domain';
import { CLI_EXIT, CliError } from './exit-codes';

/** Largest coordinate the gateway accepts, in px (as `POST /api/devices/:deviceId/commands` checks). */
const MAX_COORDINATE = 100_000;
/** Longest gesture the gateway accepts, in ms. */
const MAX_GESTURE_MS = 60_000;
/** Longest text `input` types, in UTF-16 code units. */
const MAX_TEXT_LENGTH = 100_000;
/** An Android package name: two or more dot-separated segments (what the gateway and Android accept). */
const PACKAGE_NAME = /^[A-Za-z]\w*(\.[A-Za-z_]\w*)+$/;

/** One positional argument of a command: its name in the usage line and how a word becomes its value. */
interface ArgumentRule {
  name: string;
  optional?: boolean;
  parse(word: string): string | number;
}

const integer =
  (min: number, max: number, unit: string) =>
  (name: string, word: string): number => {
    const value = /^\d+$/.test(word) ? Number(word) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max} (${unit}), got ${JSON.stringify(word)}`);
    return value;
  };

const coordinate = (name: string): ArgumentRule => ({ name, parse: (word) => integer(0, MAX_COORDINATE, 'device px')(name, word) });
const duration: ArgumentRule = { name: 'durationMs', optional: true, parse: (word) => integer(1, MAX_GESTURE_MS, 'ms')('durationMs', word) };

/** The positional arguments of each command, in order (wire protocol v1 names and units). */
const COMMAND_ARGUMENTS: Record<CommandName, ArgumentRule[]> = {
  open: [
    {
      name: 'app',
      parse: (word) => {
        if (!PACKAGE_NAME.test(word) || word.length > 255) throw new Error(`app must be an Android package name such as com.android.settings, got ${JSON.stringify(word)}`);
        return word;
      },
    },
  ],
  click: [coordinate('x'), coordinate('y')],
  long_press: [coordinate('x'), coordinate('y'), duration],
  swipe: [coordinate('x1'), coordinate('y1'), coordinate('x2'), coordinate('y2'), duration],
  input: [
    {
      name: 'text',
      parse: (word) => {
        if (word.length > MAX_TEXT_LENGTH) throw new Error(`text must be at most ${MAX_TEXT_LENGTH} characters, got ${word.length}`);
        return word;
      },
    },
  ],
  back: [],
  home: [],
  screenshot: [],
  ui_tree: [],
};

/** `click <x> <y>`, `long_press <x> <y> [durationMs]`, …: one line per command. */
export function commandUsageLines(): string[] {
  return COMMAND_NAMES.map((name) => [name, ...COMMAND_ARGUMENTS[name].map((rule) => (rule.optional ? `[${rule.name}]` : `<${rule.name}>`))].join(' '));
}

/**
 * The command `mobileclaw do <device> <command> [args…]` sends, checked before anything is sent:
 * the command name is a protocol command, the number of words fits, and each word is a valid value
 * (coordinates 0–100 000 px, durations 1–60 000 ms, a package name, text up to 100 000 characters).
 * `--clear` (input only) replaces the field's text.
 * @throws CliError (usage) naming the command and the argument at fault.
 */
export function parseCommandArguments(name: string, words: string[], flags: { clear?: boolean } = {}): Command {
  if (!(COMMAND_NAMES as string[]).includes(name)) throw new CliError(`unknown command ${JSON.stringify(name)}; the commands are ${COMMAND_NAMES.join(', ')}`, CLI_EXIT.usage);
  const command = name as CommandName;
  const rules = COMMAND_ARGUMENTS[command];
  const usage = [command, ...rules.map((rule) => (rule.optional ? `[${rule.name}]` : `<${rule.name}>`))].join(' ');
  const required = rules.filter((rule) => !rule.optional).length;
  if (words.length < required || words.length > rules.length) {
    const expected = required === rules.length ? `${required}` : `${required} to ${rules.length}`;
    throw new CliError(`${command} takes ${expected} argument${rules.length === 1 ? '' : 's'} (${usage}), got ${words.length}`, CLI_EXIT.usage);
  }
  if (flags.clear && command !== 'input') throw new CliError(`--clear applies to input only, not ${command}`, CLI_EXIT.usage);
  const args: Record<string, string | number | boolean> = {};
  words.forEach((word, i) => {
    try {
      args[rules[i].name] = rules[i].parse(word);
    } catch (error) {
      throw new CliError(`${command}: ${(error as Error).message}`, CLI_EXIT.usage);
    }
  });
  if (flags.clear) args['clear'] = true;
  return { command, ...args } as Command;
}
