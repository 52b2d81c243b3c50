/**
 * Child process of the crash test: `node --require tools/register-typescript.cjs crash-writer.ts <dataDir> <FULL|NORMAL>`
 * (forked, with an IPC channel). It stores a finished task, a running one and a queued one, reports
 * `ready`, then keeps recording steps and events of the running task, reporting each write after it
 * has committed, until the parent kills it.
 */
import type { TaskEvent, TaskStep } from '@mobileclaw/domain';
import { SqliteTaskRepository } from '../sqlite-task-repository';
import type { TaskDatabaseSynchronous } from '../task-database';
import { crashScenario } from './crash-scenario';

export type CrashWriterMessage =
  | { type: 'ready' }
  | { type: 'event'; event: TaskEvent }
  | { type: 'step'; step: TaskStep };

function report(message: CrashWriterMessage): void {
  process.send?.(message);
}

async function main(dataDir: string, synchronous: TaskDatabaseSynchronous): Promise<void> {
  const repository = SqliteTaskRepository.open({ dataDir, synchronous });
  await crashScenario.writeBeforeReady(repository);
  report({ type: 'ready' });
  for (let index = crashScenario.firstLoopStep; ; index++) {
    report({ type: 'event', event: await repository.appendEvent(crashScenario.running.taskId, 'step.started', { index }, crashScenario.at(index)) });
    const step = crashScenario.step(index);
    await repository.saveStep(step);
    report({ type: 'step', step });
    report({ type: 'event', event: await repository.appendEvent(crashScenario.running.taskId, 'step.acted', { index, status: 'success' }, crashScenario.at(index)) });
    // Let the IPC channel flush between iterations (the writes themselves are synchronous).
    await new Promise((resolve) => setImmediate(resolve));
  }
}

main(process.argv[2], process.argv[3] as TaskDatabaseSynchronous).catch((err) => {
  console.error(err);
  process.exit(1);
});
