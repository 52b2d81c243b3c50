import { InvalidArgumentError, Option, type Command } from 'commander';
import picocolors from 'picocolors';
import { TASK_STATUSES } from '@mobileclaw/domain';
import { commandUsageLines, parseCommandArguments } from './command-arguments';
import { CLI_EXIT, CLI_EXIT_CODES_HELP, CliError, type CliExitCode } from './exit-codes';
import { GatewayClient, GatewayRequestError } from './gateway-client';
import { describeGatewayFailure, describeLoginFailure, shownUrl, type RequestSubject } from './gateway-failure';
import { API_TOKEN_ENV, configFilePath, DEFAULT_GATEWAY_URL, GATEWAY_URL_ENV, HTTP_HOST_ENV, HTTP_PORT_ENV, resolveGatewayTarget, writeStoredLogin, type GatewayTarget } from './gateway-target';
import { formatCommandResult, formatDevices, formatTasks } from './listing-format';
import { fileWriteFailure, writeLocalFile } from './local-file';
import { followTask, STOP_SIGNALS, type StopSignal } from './task-follower';
import { colorsFor } from './terminal';

/** Options every command that talks to a gateway takes. */
interface ConnectionOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

const CONNECTION_HELP = `
The gateway: --url, else ${GATEWAY_URL_ENV}, else the one \`mobileclaw login\` saved, else
${DEFAULT_GATEWAY_URL} (host and port from ${HTTP_HOST_ENV} and ${HTTP_PORT_ENV} when set, as the
gateway reads them). The API token (the gateway's MOBILECLAW_API_TOKEN; none by default):
--token, else ${API_TOKEN_ENV}, else the saved one (sent only to the gateway it was saved for).

${CLI_EXIT_CODES_HELP}`;

/** `--help` text after the options: the examples, then where the gateway and token come from and the exit codes. */
const helpAfter = (...examples: string[]): string => `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n${CONNECTION_HELP}\n`;

function positiveInteger(name: string, max: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`${name} must be an integer from 1 to ${max}`);
    return n;
  };
}

/** Adds `--url`, `--token` and `--json` to a command that talks to a gateway. */
function connecting(command: Command, json = 'print JSON (the gateway\'s answer) instead of text'): Command {
  return command
    .addOption(new Option('--url <url>', `the gateway's base URL (default: ${GATEWAY_URL_ENV}, the saved login, or ${DEFAULT_GATEWAY_URL} with ${HTTP_HOST_ENV} and ${HTTP_PORT_ENV})`))
    .addOption(new Option('--token <token>', `the gateway's API token (default: ${API_TOKEN_ENV}, or the saved login)`))
    .option('--json', json);
}

/** The gateway call's failure as the command's one-line message and exit code (`describe` words it). */
async function call<T>(target: GatewayTarget, request: Promise<T>, subject: RequestSubject = {}, describe: typeof describeGatewayFailure = describeGatewayFailure): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof GatewayRequestError) throw describe(error, target, subject);
    throw error;
  }
}

/**
 * Runs a command's body, prints a {@link CliError} as `mobileclaw <name>: <message>` on stderr and
 * exits with the body's code (or the error's) once stdout is flushed.
 */
function action<A extends unknown[]>(name: string, body: (...args: A) => Promise<CliExitCode | void>): (...args: A) => Promise<void> {
  return async (...args) => {
    let code: number;
    try {
      code = (await body(...args)) ?? CLI_EXIT.success;
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      process.stderr.write(`mobileclaw ${name}: ${error.message}\n`);
      code = error.exitCode;
    }
    process.stdout.write('', () => process.exit(code));
  };
}

const print = (text: string): void => void process.stdout.write(`${text}\n`);

/**
 * The commands that drive a running gateway through its REST API: `devices`, `screenshot`, `do`,
 * `tasks`, `task`, `run`, `approve`, `deny`, `cancel` and `login`. Each prints text for a person
 * (colours only on a terminal) or, with `--json`, JSON for scripts, and exits with a code of
 * {@link CLI_EXIT}.
 */
export function addClientCommands(program: Command, env: Record<string, string | undefined>): void {
  const target = (options: ConnectionOptions) => resolveGatewayTarget(options, env);
  const colors = (options: ConnectionOptions) => (options.json ? picocolors.createColors(false) : colorsFor(process.stdout, env));

  connecting(program.command('devices').description('list the phones the gateway knows, online ones first'))
    .addHelpText('after', helpAfter('mobileclaw devices', 'mobileclaw devices --json --url http://127.0.0.1:3000'))
    .action(
      action('devices', async (options: ConnectionOptions) => {
        const gateway = target(options);
        const devices = await call(gateway, new GatewayClient(gateway).listDevices());
        print(options.json ? JSON.stringify({ devices }) : formatDevices(devices, colors(options)));
      }),
    );

  connecting(program.command('screenshot').description("save a phone's screen as an image file").argument('<device>', 'the device id (see `mobileclaw devices`)'), 'print what was saved as JSON')
    .option('-o, --output <file>', 'where to write the image (default: <device>.png or .jpg)')
    .addOption(new Option('--format <format>', 'image format').choices(['png', 'jpeg']).default('png'))
    .addOption(new Option('--quality <n>', 'JPEG quality, 1–100').argParser(positiveInteger('--quality', 100)))
    .addOption(new Option('--max-width <px>', 'downscale to at most this width, in px').argParser(positiveInteger('--max-width', 100_000)))
    .addHelpText('after', helpAfter('mobileclaw screenshot sim-1 -o shot.png', 'mobileclaw screenshot sim-1 --format jpeg --quality 80 --max-width 540 -o small.jpg'))
    .action(
      action('screenshot', async (deviceId: string, options: ConnectionOptions & { output?: string; format: 'png' | 'jpeg'; quality?: number; maxWidth?: number }) => {
        const gateway = target(options);
        const shot = await call(gateway, new GatewayClient(gateway).screenshot(deviceId, { format: options.format, quality: options.quality, maxWidth: options.maxWidth }), { deviceId });
        const file = options.output ?? `${deviceId}.${options.format === 'jpeg' ? 'jpg' : 'png'}`;
        writeLocalFile(file, shot.bytes);
        const saved = { file, mime: shot.mime, width: shot.width, height: shot.height, bytes: shot.bytes.byteLength, ...(shot.frameId ? { frameId: shot.frameId } : {}) };
        print(options.json ? JSON.stringify(saved) : `saved ${deviceId}'s screen to ${file} (${shot.width}×${shot.height} px, ${shot.mime}, ${shot.bytes.byteLength} bytes)`);
      }),
    );

  connecting(
    program
      .command('do')
      .description('send one command to a phone and print its answer; the arguments are checked before anything is sent')
      .argument('<device>', 'the device id (see `mobileclaw devices`)')
      .argument('<command>', 'the command: open, click, long_press, swipe, input, back, home, screenshot, ui_tree')
      .argument('[args...]', "the command's arguments, in px and ms (see below)"),
  )
    .option('--clear', 'input: replace the text of the field instead of appending')
    .addOption(new Option('--timeout <ms>', "the command's deadline in ms, queue time included (default: the gateway's)").argParser(positiveInteger('--timeout', 600_000)))
    .option('--frame <frameId>', 'the frame (from screenshot or ui_tree) the command was planned on: refused with STALE_FRAME if the screen changed since')
    .addHelpText(
      'after',
      `\nCommands and their arguments (coordinates in device px, durations in ms):\n${commandUsageLines()
        .map((line) => `  ${line}`)
        .join('\n')}\n` + helpAfter('mobileclaw do sim-1 click 540 1200', 'mobileclaw do sim-1 input "héllo wörld" --clear', 'mobileclaw do sim-1 swipe 540 1800 540 600 300', 'mobileclaw do sim-1 ui_tree --json'),
    )
    .action(
      action('do', async (deviceId: string, name: string, words: string[], options: ConnectionOptions & { clear?: boolean; timeout?: number; frame?: string }) => {
        const command = parseCommandArguments(name, words, { clear: options.clear });
        const gateway = target(options);
        const result = await call(gateway, new GatewayClient(gateway).execute(deviceId, command, { timeoutMs: options.timeout, frameId: options.frame }), { deviceId });
        print(options.json ? JSON.stringify(result) : formatCommandResult(result, colors(options)));
      }),
    );

  connecting(program.command('tasks').description('list tasks, newest first'))
    .option('--device <device>', "only this phone's tasks")
    .addOption(new Option('--status <status>', 'only tasks in this status').choices([...TASK_STATUSES]))
    .addOption(new Option('--limit <n>', 'at most this many (1–200)').argParser(positiveInteger('--limit', 200)).default(20))
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .addHelpText('after', helpAfter('mobileclaw tasks', 'mobileclaw tasks --device sim-1 --status failed --limit 5'))
    .action(
      action('tasks', async (options: ConnectionOptions & { device?: string; status?: string; limit: number; cursor?: string }) => {
        const gateway = target(options);
        const page = await call(gateway, new GatewayClient(gateway).listTasks({ deviceId: options.device, status: options.status, limit: options.limit, cursor: options.cursor }));
        if (options.json) return print(JSON.stringify(page));
        print(formatTasks(page.tasks, colors(options)));
        if (page.nextCursor) print(`more: mobileclaw tasks --cursor ${page.nextCursor}`);
      }),
    );

  connecting(program.command('task').description("replay a task's timeline step by step (a running one is followed live until it ends)").argument('<taskId>', 'the task id (see `mobileclaw tasks`)'), 'print the task\'s events, one JSON object per line')
    .addHelpText('after', helpAfter('mobileclaw task 3fe78d53-0c5e-4f3e-9a51-2b7d0c1e9f20', 'mobileclaw task 3fe78d53-0c5e-4f3e-9a51-2b7d0c1e9f20 --json'))
    .action(
      action('task', async (taskId: string, options: ConnectionOptions) => {
        const gateway = target(options);
        return followTask({ command: 'mobileclaw task', client: new GatewayClient(gateway), taskId, json: options.json === true, onInterrupt: 'detach', stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env });
      }),
    );

  connecting(
    program
      .command('run')
      .description("run a goal on a phone and show its steps live; asks y/n when a step needs approval; Ctrl-C (or SIGTERM) cancels the task")
      .argument('<device>', 'the device id (see `mobileclaw devices`)')
      .argument('<goal>', 'what to achieve, e.g. "Turn on Wi-Fi" (at most 2000 characters)'),
    'print the task\'s events, one JSON object per line (approvals are then answered elsewhere)',
  )
    .addOption(new Option('--max-steps <n>', 'the step budget (1–200; default: the gateway\'s, 25)').argParser(positiveInteger('--max-steps', 200)))
    .option('--no-queue', 'fail with DEVICE_BUSY instead of waiting when the phone runs another task')
    .addHelpText('after', helpAfter('mobileclaw run sim-1 "Turn on Wi-Fi"', 'mobileclaw run sim-1 "send \'hi\' to Nina" --max-steps 15', 'mobileclaw run sim-1 "open Settings" --json > events.jsonl'))
    .action(
      action('run', async (deviceId: string, goal: string, options: ConnectionOptions & { maxSteps?: number; queue: boolean }) => {
        const gateway = target(options);
        const client = new GatewayClient(gateway);
        // A signal before the follower listens (while the task is being started) is kept until it
        // does, so that the task is canceled rather than left running by a process that just ended;
        // a second one leaves at once (the gateway may not answer).
        let earlier: StopSignal | undefined;
        const remember = (signal: StopSignal) => {
          if (earlier === undefined) return void (earlier = signal);
          process.stderr.write(`mobileclaw run: stopped while the task was being started; \`mobileclaw tasks --device ${deviceId}\` shows whether it was\n`);
          process.exit(CLI_EXIT.interrupted);
        };
        const handOver = () => {
          for (const signal of STOP_SIGNALS) process.off(signal, remember);
          return earlier;
        };
        for (const signal of STOP_SIGNALS) process.on(signal, remember);
        try {
          const accepted = await call(gateway, client.startTask({ deviceId, goal, maxSteps: options.maxSteps, onBusy: options.queue ? 'queue' : 'reject' }), { deviceId });
          return await followTask({ command: 'mobileclaw run', client, taskId: accepted.taskId, json: options.json === true, onInterrupt: 'cancel', earlierSignal: handOver, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env });
        } finally {
          handOver();
        }
      }),
    );

  for (const [name, description, example] of [
    ['approve', 'approve the step a task waits on (status input_required)', 'mobileclaw approve 3fe78d53-0c5e-4f3e-9a51-2b7d0c1e9f20'],
    ['deny', 'deny the step a task waits on; the task ends canceled (APPROVAL_DENIED)', 'mobileclaw deny 3fe78d53-0c5e-4f3e-9a51-2b7d0c1e9f20'],
    ['cancel', 'cancel a queued or running task', 'mobileclaw cancel 3fe78d53-0c5e-4f3e-9a51-2b7d0c1e9f20'],
  ] as const) {
    connecting(program.command(name).description(description).argument('<taskId>', 'the task id (see `mobileclaw tasks`)'))
      .addHelpText('after', helpAfter(example))
      .action(
        action(name, async (taskId: string, options: ConnectionOptions) => {
          const gateway = target(options);
          const client = new GatewayClient(gateway);
          const task = await call(gateway, name === 'cancel' ? client.cancelTask(taskId) : client.answerApproval(taskId, name === 'approve'), { taskId });
          print(options.json ? JSON.stringify(task) : `task ${task.taskId}: ${task.status}${task.error ? ` (${task.error.code})` : ''}`);
        }),
      );
  }

  program
    .command('login')
    .description('save the gateway URL and API token for the other commands, in a file only you can read')
    .addOption(new Option('--url <url>', `the gateway's base URL (default: ${GATEWAY_URL_ENV}, or ${DEFAULT_GATEWAY_URL} with ${HTTP_HOST_ENV} and ${HTTP_PORT_ENV})`))
    .addOption(new Option('--token <token>', `the API token (default: ${API_TOKEN_ENV}); visible to other users in the process list, prefer --token-stdin`))
    .option('--token-stdin', 'read the API token from stdin (e.g. from a password manager)')
    .addHelpText(
      'after',
      `\nThe gateway is asked for its phones with the token first; nothing is saved when it refuses it.\nThe file: ${configFilePath(env)} (mode 0600; $XDG_CONFIG_HOME/mobileclaw/config.json).\n` +
        helpAfter('mobileclaw login --url http://127.0.0.1:3000', 'pass show mobileclaw | mobileclaw login --url https://gateway.example.com --token-stdin'),
    )
    .action(
      action('login', async (options: { url?: string; token?: string; tokenStdin?: boolean }) => {
        let token = options.token;
        if (options.tokenStdin) {
          if (token !== undefined) throw new CliError('pass the token with --token or --token-stdin, not both', CLI_EXIT.usage);
          let text = '';
          for await (const chunk of process.stdin) text += String(chunk);
          token = text.trim();
          if (token === '') throw new CliError('--token-stdin: stdin held no token', CLI_EXIT.usage);
        }
        const file = configFilePath(env);
        // The token comes from the flags or the environment only: a saved one belongs to the saved URL.
        const gateway = resolveGatewayTarget({ url: options.url, token }, env, null);
        const devices = await call(gateway, new GatewayClient(gateway).listDevices(), {}, describeLoginFailure);
        try {
          writeStoredLogin(file, { url: shownUrl(gateway), ...(gateway.token ? { token: gateway.token } : {}) });
        } catch (error) {
          throw new CliError(`cannot save the login to ${file}: ${fileWriteFailure(error, (error as NodeJS.ErrnoException).path ?? file)}`, CLI_EXIT.localFile);
        }
        print(`logged in to ${shownUrl(gateway)} (${devices.length} phone${devices.length === 1 ? '' : 's'}${gateway.token ? ', with an API token' : ', no API token needed'}); saved to ${file}`);
      }),
    );
}
