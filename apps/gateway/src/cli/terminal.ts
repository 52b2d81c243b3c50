import type { Colors } from 'picocolors/types';
import picocolors from 'picocolors';

/** Where the commands write for a person: stdout, and what it is connected to. */
export interface TerminalStream {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Width in characters; 0 or undefined when the terminal has no size (e.g. a pseudo-terminal nobody sized). */
  columns?: number;
}

/**
 * Colours only on a terminal: `stream` is a TTY, `NO_COLOR` is unset or empty (https://no-color.org)
 * and `TERM` is not `dumb`. Pipes, files and `--json` get plain text.
 */
export function colorsFor(stream: TerminalStream, env: Record<string, string | undefined>): Colors {
  const enabled = stream.isTTY === true && !env['NO_COLOR'] && env['TERM'] !== 'dumb';
  return picocolors.createColors(enabled);
}

/**
 * Whether a spinner can redraw its line: a TTY with a known width (a spinner clears the lines it
 * drew by counting them against the width, which a terminal of width 0 makes endless) and a `TERM`
 * other than `dumb`.
 */
export function canAnimate(stream: TerminalStream, env: Record<string, string | undefined>): boolean {
  return stream.isTTY === true && (stream.columns ?? 0) > 0 && env['TERM'] !== 'dumb';
}

/** The live line of a running task: a spinner with a text, and lines that stay above it. */
export interface StatusLine {
  /** Shows `text` as what is happening now (starts the spinner when stopped). */
  update(text: string): void;
  /** Stops the spinner and prints `text` after `symbol` as a line that stays. */
  persist(symbol: string, text: string): void;
  /** Stops the spinner and clears its line. */
  clear(): void;
}

/**
 * An `ora` spinner on `stream`. Loaded with `import()`: ora is an ES module, and this app is
 * CommonJS. It never touches stdin (no raw mode), so Ctrl-C stays a SIGINT and a y/n question can
 * be read while it is stopped.
 */
export async function spinnerLine(stream: NodeJS.WritableStream, colors: Colors): Promise<StatusLine> {
  const { default: ora } = await import('ora');
  const spinner = ora({ stream, discardStdin: false, isEnabled: true, color: colors.isColorSupported ? 'cyan' : false });
  return {
    update(text) {
      spinner.text = text;
      if (!spinner.isSpinning) spinner.start();
    },
    persist(symbol, text) {
      spinner.stopAndPersist({ symbol, text });
    },
    clear() {
      spinner.stop();
    },
  };
}

/** A status line for output that cannot be redrawn (a pipe, a file): the lines that stay, no spinner. */
export function plainLine(stream: TerminalStream): StatusLine {
  return {
    update() {},
    persist(symbol, text) {
      stream.write(`${symbol} ${text}\n`);
    },
    clear() {},
  };
}
