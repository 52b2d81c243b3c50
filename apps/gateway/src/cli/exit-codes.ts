/**
 * Exit codes of the `mobileclaw` commands that talk to a gateway over its REST API (`devices`, `do`,
 * `run`, …): one code per kind of failure, so that a script can tell "start the gateway" from "wrong
 * token" from "the phone is offline". 1, 2 and 3 mean what they mean for `mobileclaw mcp` and
 * `mobileclaw adb`; 130 is the shell's code for a process ended by Ctrl-C (128 + SIGINT);
 * a SIGTERM ends the same way (the same cleanup, the same code), so that a script sees one code for "stopped".
 */
export const CLI_EXIT = {
  /** The command did what it was asked; for `run` and `task`: the task completed. */
  success: 0,
  /** No gateway answers at the URL (not running, wrong URL, not a MobileClaw gateway). */
  gatewayUnreachable: 1,
  /** Invalid command line or command arguments (nothing was sent), or arguments the gateway found invalid. */
  usage: 2,
  /** The gateway refused the API token: missing or wrong. */
  unauthorized: 3,
  /** No such device or task on the gateway. */
  notFound: 4,
  /** The phone is offline, or dropped during the command. */
  deviceOffline: 5,
  /** The task ended without reaching its goal: failed or interrupted. */
  taskFailed: 6,
  /** The task was canceled: its approval was denied, or someone canceled it elsewhere. */
  taskCanceled: 7,
  /** The gateway or the phone answered another error (busy, timeout, the phone's own error, …). */
  requestFailed: 8,
  /** A local file could not be written (`screenshot -o`, the login's config file): a missing directory, no permission, a full disk. */
  localFile: 9,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM; `run` first cancels its task on the gateway. */
  interrupted: 130,
} as const;

export type CliExitCode = (typeof CLI_EXIT)[keyof typeof CLI_EXIT];

/** The table `--help` and the README show. */
export const CLI_EXIT_CODES_HELP = `Exit codes:
  0    success (run, task: the task completed)
  1    no gateway answers at the URL (not running, wrong URL)
  2    invalid command line or command arguments (nothing sent)
  3    the gateway refused the API token (missing or wrong)
  4    no such device or task
  5    the phone is offline (or dropped during the command)
  6    the task failed or was interrupted
  7    the task was canceled (approval denied, or canceled elsewhere)
  8    another error from the gateway or the phone (busy, timeout, …)
  9    a local file could not be written (screenshot -o, login's config file)
  130  Ctrl-C or SIGTERM (run cancels its task on the gateway first)`;

/**
 * A failure the command reports as one line on stderr (`mobileclaw <command>: <message>`) and ends
 * with `exitCode`. Anything else thrown is a bug, shown with its stack.
 */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: CliExitCode,
  ) {
    super(message);
  }
}
