import { createInterface } from 'node:readline/promises';
import picocolors from 'picocolors';
import type { TaskEvent } from '@mobileclaw/domain';
import { CLI_EXIT, type CliExitCode } from './exit-codes';
import { GatewayRequestError, type GatewayClient } from './gateway-client';
import { describeGatewayFailure } from './gateway-failure';
import { formatOutcome, formatStep, mark } from './task-progress-format';
import { TaskProgress, type ProgressUpdate, type TaskOutcome } from './task-progress';
import { canAnimate, colorsFor, plainLine, spinnerLine, type StatusLine } from './terminal';

/** Where a follower reads and writes: the process's own streams, or a test's. */
export interface FollowerStreams {
  stdout: NodeJS.WriteStream;
  stderr: { write(text: string): unknown };
  stdin: NodeJS.ReadStream;
  env: Record<string, string | undefined>;
}

export interface FollowTaskOptions extends FollowerStreams {
  /** How messages on stderr name the command, e.g. `mobileclaw run`. */
  command: string;
  client: GatewayClient;
  taskId: string;
  /** One JSON object per line on stdout for each event (as the gateway sends it), nothing else; messages go to stderr. */
  json: boolean;
  /** What Ctrl-C (SIGINT) and SIGTERM do: cancel the task on the gateway (`run`), or only stop following it (`task`). */
  onInterrupt: 'cancel' | 'detach';
  /**
   * The signal that came before the follower listened for signals (e.g. while the task was being
   * started), if any: read once, as soon as it listens, and handled then.
   */
  earlierSignal?: () => StopSignal | undefined;
}

/** The signals that stop a follower: Ctrl-C, and a process manager's stop. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code of a task that ended: 0 completed, 6 failed or interrupted, 7 canceled. */
export function exitCodeOf(outcome: TaskOutcome): CliExitCode {
  if (outcome.status === 'completed') return CLI_EXIT.success;
  return outcome.status === 'canceled' ? CLI_EXIT.taskCanceled : CLI_EXIT.taskFailed;
}

/**
 * Follows a task's event stream to its end and resolves with the exit code ({@link CLI_EXIT}):
 * on a terminal, a spinner per step and a line per finished step (TaskProgress); without one,
 * the same lines without the spinner; with `json`, the events themselves. When the task waits for
 * approval and stdin is a terminal (not with `json`), it asks y/n and answers the gateway; otherwise
 * it says on stderr how to answer elsewhere and goes on following. Ctrl-C (SIGINT) or SIGTERM cancels
 * the task on the gateway and waits for its `task.canceled` (exit 130), or only stops following; a
 * second signal stops waiting.
 */
export async function followTask(options: FollowTaskOptions): Promise<CliExitCode> {
  const { client, taskId, json, stdout, stderr, stdin, env, command } = options;
  const colors = json ? picocolors.createColors(false) : colorsFor(stdout, env);
  const line: StatusLine = json ? plainLine({ write: () => true }) : canAnimate(stdout, env) ? await spinnerLine(stdout, colors) : plainLine(stdout);
  const askInTerminal = !json && stdin.isTTY === true;
  const progress = new TaskProgress(taskId);
  const say = (text: string) => (json ? stderr.write(`${command}: ${text}\n`) : line.persist(colors.cyan('•'), text));
  // What a person must do elsewhere is a message, not output: stderr, also without --json.
  const tell = (text: string) => {
    line.clear();
    stderr.write(`${command}: ${text}\n`);
  };

  return new Promise<CliExitCode>((resolve) => {
    let interrupted = false;
    let ended = false;
    let question: AbortController | undefined;
    const finish = (code: CliExitCode) => {
      if (ended) return;
      ended = true;
      for (const signal of STOP_SIGNALS) process.off(signal, onInterrupt);
      question?.abort();
      stream.close();
      line.clear();
      resolve(code);
    };
    const fail = (error: unknown) => {
      const failure = error instanceof GatewayRequestError ? describeGatewayFailure(error, client.target, { taskId }) : undefined;
      line.clear();
      stderr.write(`${command}: ${failure?.message ?? String(error)}\n`);
      finish(failure?.exitCode ?? CLI_EXIT.requestFailed);
    };

    const render = (update: ProgressUpdate) => {
      switch (update.kind) {
        case 'activity':
          if (!interrupted) line.update(update.text);
          return;
        case 'step':
          line.persist(mark(update.step.outcome === 'ok', colors), formatStep(update.step, colors));
          return;
        case 'notice':
          line.persist(colors.cyan('•'), update.text);
          return;
        case 'approval': {
          const what = `step ${update.stepIndex + 1} · ${update.action} needs approval: ${update.reason}`;
          if (json) stderr.write(`${command}: ${what}\n`);
          else line.persist(colors.yellow('?'), what);
          if (askInTerminal && !interrupted) void askApproval();
          else tell(`approve with \`mobileclaw approve ${taskId}\` or deny with \`mobileclaw deny ${taskId}\` (or in the live view)`);
          return;
        }
        case 'finished':
          line.persist(mark(update.outcome.status === 'completed', colors), formatOutcome(update.outcome, colors));
          finish(interrupted && options.onInterrupt === 'cancel' && update.outcome.status === 'canceled' ? CLI_EXIT.interrupted : exitCodeOf(update.outcome));
          return;
      }
    };

    const askApproval = async () => {
      question = new AbortController();
      const reader = createInterface({ input: stdin, output: stdout, terminal: false });
      const closed = new Promise<undefined>((resolveClosed) => reader.once('close', () => resolveClosed(undefined)));
      try {
        for (;;) {
          const answer = await Promise.race([reader.question(`Approve? [y/N] `, { signal: question.signal }), closed]);
          if (answer === undefined) {
            tell(`no answer (stdin closed); the task waits: approve with \`mobileclaw approve ${taskId}\` or deny with \`mobileclaw deny ${taskId}\``);
            return;
          }
          const word = answer.trim().toLowerCase();
          if (['y', 'yes', 'n', 'no', ''].includes(word)) {
            const approve = word.startsWith('y');
            await client.answerApproval(taskId, approve).catch((error: unknown) => {
              // Answered elsewhere meanwhile (the live view, another terminal): the stream tells what happened.
              if (!(error instanceof GatewayRequestError && error.code === 'TASK_STATE_CONFLICT')) throw error;
            });
            if (!approve) say('denied');
            return;
          }
        }
      } catch (error) {
        if (!question.signal.aborted) fail(error);
      } finally {
        reader.close();
        stdin.pause();
      }
    };

    const onInterrupt = (signal: StopSignal) => {
      if (interrupted) return finish(CLI_EXIT.interrupted);
      interrupted = true;
      question?.abort();
      if (options.onInterrupt === 'detach') {
        say(`stopped following task ${taskId}; it goes on on the gateway`);
        return finish(CLI_EXIT.interrupted);
      }
      say(`canceling task ${taskId} (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to stop waiting)`);
      client.cancelTask(taskId).catch((error: unknown) => {
        // Already over: its terminal event is on its way.
        if (!(error instanceof GatewayRequestError && error.code === 'TASK_STATE_CONFLICT')) fail(error);
      });
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onInterrupt);
    const earlier = options.earlierSignal?.();

    const stream = client.followTaskEvents(taskId, {
      event: (event: TaskEvent) => {
        if (json) stdout.write(`${JSON.stringify(event)}\n`);
        for (const update of progress.apply(event)) render(update);
      },
      reconnecting: (detail) => {
        if (json) stderr.write(`${command}: lost the gateway (${detail}); reconnecting\n`);
        else line.update(`lost the gateway (${detail}); reconnecting`);
      },
      failed: fail,
    });
    if (earlier) onInterrupt(earlier);
  });
}
