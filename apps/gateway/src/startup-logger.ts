import { ConsoleLogger, type ConsoleLoggerOptions } from '@nestjs/common';
import { MobileClawError } from '@mobileclaw/domain';
import { GatewayStartError } from './gateway-start-error';

/**
 * Nest's logger while the app is being built. What is logged then is buffered (`bufferLogs`) and, once
 * the app is built, written by the configured logger; this one writes the buffer only when building
 * fails. It keeps the modules' warnings and errors, and drops Nest's progress lines and debug output
 * and Nest's `ExceptionHandler` report of a {@link GatewayStartError} or `MobileClawError` (the error
 * with its stack and causes): the CLI prints such an error in one line that says what to do. Any other
 * error — a bug — keeps Nest's report, whose stack is then the point.
 */
export class StartupLogger extends ConsoleLogger {
  /** @param options Nest's console logger options; colours only on a terminal (stdout and stderr) unless `NO_COLOR` is set, by default. */
  constructor(options: ConsoleLoggerOptions = {}) {
    super({ colors: process.stdout.isTTY === true && process.stderr.isTTY === true && !process.env['NO_COLOR'], ...options });
  }

  override log(_message: unknown, ..._optionalParams: unknown[]): void {}

  override debug(_message: unknown, ..._optionalParams: unknown[]): void {}

  override verbose(_message: unknown, ..._optionalParams: unknown[]): void {}

  override error(message: unknown, ...optionalParams: unknown[]): void {
    if (optionalParams.at(-1) === 'ExceptionHandler' && (message instanceof GatewayStartError || message instanceof MobileClawError)) return;
    super.error(message, ...optionalParams);
  }
}
