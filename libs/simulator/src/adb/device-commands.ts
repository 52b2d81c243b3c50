/** Every command the simulated phone's shell knows, by name (`/system/bin/NAME` resolves here too). */
import { dumpsysCommand, getpropCommand, screencapCommand, settingsCommand, uiautomatorCommand, wmCommand } from './display-commands';
import { inputCommand } from './input-command';
import { amCommand, cmdCommand, monkeyCommand, pmCommand } from './package-commands';
import { catCommand, echoCommand, falseCommand, grepCommand, headCommand, rmCommand, shCommand, sleepCommand, tailCommand, trueCommand, whoamiCommand } from './posix-commands';
import type { ShellCommand } from './shell-runtime';

export const DEVICE_COMMANDS: ReadonlyMap<string, ShellCommand> = new Map<string, ShellCommand>([
  ['am', amCommand],
  ['cat', catCommand],
  ['cmd', cmdCommand],
  ['dumpsys', dumpsysCommand],
  ['echo', echoCommand],
  ['false', falseCommand],
  ['getprop', getpropCommand],
  ['grep', grepCommand],
  ['head', headCommand],
  ['input', inputCommand],
  ['monkey', monkeyCommand],
  ['pm', pmCommand],
  ['rm', rmCommand],
  ['screencap', screencapCommand],
  ['settings', settingsCommand],
  ['sh', shCommand],
  ['sleep', sleepCommand],
  ['tail', tailCommand],
  ['true', trueCommand],
  [':', trueCommand],
  ['uiautomator', uiautomatorCommand],
  ['whoami', whoamiCommand],
  ['wm', wmCommand],
]);
