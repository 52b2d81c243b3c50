import type { LoggerService } from '@nestjs/common';

/** A Nest logger that keeps its lines (`"<level> <message>"`), for specs that wait for or read what a component logged. */
export interface RecordingLogger extends LoggerService {
  /** Every line so far, oldest first. */
  readonly lines: string[];
  /** Resolves with the next line (logged after this call) that matches `pattern`. */
  next(pattern: RegExp): Promise<string>;
  /** The messages logged at `level` so far, oldest first, without the level. */
  messages(level: 'log' | 'warn' | 'error'): string[];
}

/** A {@link RecordingLogger} with levels `log`, `warn` and `error`. */
export function recordingLogger(): RecordingLogger {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const write = (level: string) => (message: unknown) => {
    const line = `${level} ${String(message)}`;
    lines.push(line);
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(line)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  };
  return {
    lines,
    log: write('log'),
    warn: write('warn'),
    error: write('error'),
    next: (pattern) => new Promise((resolve) => waiters.push({ pattern, resolve })),
    messages: (level) => lines.filter((line) => line.startsWith(`${level} `)).map((line) => line.slice(level.length + 1)),
  };
}
