import type { Command } from 'commander';
import { mobileclawCli } from '../cli';
import { CLI_EXIT, CLI_EXIT_CODES_HELP } from './exit-codes';

/** What `mobileclaw <command> --help` prints. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

const program = mobileclawCli({});
const byName = new Map(program.commands.map((command) => [command.name(), command]));

describe('mobileclaw --help', () => {
  it('has every command, each with an example of itself (sim shows the simulator\'s own usage)', () => {
    expect([...byName.keys()]).toEqual(['start', 'sim', 'mcp', 'adb', 'devices', 'screenshot', 'do', 'tasks', 'task', 'run', 'approve', 'deny', 'cancel', 'login']);
    for (const [name, command] of byName) {
      if (name === 'sim') continue;
      const help = helpOf(command);
      expect({ name, example: new RegExp(`\\nExamples?:\\n {2}\\$ (MOBILECLAW_\\w+=\\S+ )?mobileclaw ${name}\\b`).test(help) }).toEqual({ name, example: true });
    }
  });

  it('lists the exit codes in the program help and in each command that talks to a gateway', () => {
    expect(helpOf(program)).toContain(CLI_EXIT_CODES_HELP.replace(/^Exit codes:\n/, ''));
    for (const name of ['devices', 'screenshot', 'do', 'tasks', 'task', 'run', 'approve', 'deny', 'cancel', 'login']) expect(helpOf(byName.get(name) as Command)).toContain(CLI_EXIT_CODES_HELP);
    // The table names every code there is, once.
    const listed = [...CLI_EXIT_CODES_HELP.matchAll(/^ {2}(\d+) /gm)].map((m) => Number(m[1]));
    expect(listed).toEqual(Object.values(CLI_EXIT));
  });

  it("shows do's commands with their arguments", () => {
    expect(helpOf(byName.get('do') as Command)).toContain('  long_press <x> <y> [durationMs]\n  swipe <x1> <y1> <x2> <y2> [durationMs]\n');
  });
});
