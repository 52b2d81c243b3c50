import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Task, TaskEvent, TaskStep } from '@mobileclaw/domain';
import { stepFixture } from '@mobileclaw/domain/testing';
import { SqliteTaskRepository } from './sqlite-task-repository';
import type { TaskDatabaseSynchronous } from './task-database';
import { crashScenario } from './testing/crash-scenario';
import type { CrashWriterMessage } from './testing/crash-writer';
import { temporaryDataDir } from './testing/temporary-data-dir';

/** Writes the child reports after `ready` before it is killed: enough to be well inside its write loop. */
const WRITES_BEFORE_KILL = 60;

interface ChildReport {
  events: TaskEvent[];
  steps: TaskStep[];
}

/**
 * Forks the crash writer on `dataDir`, waits for `ready` and then for {@link WRITES_BEFORE_KILL}
 * committed writes, SIGKILLs it while it keeps writing, and returns what it reported as committed.
 */
async function runAndKill(dataDir: string, synchronous: TaskDatabaseSynchronous): Promise<ChildReport> {
  const child: ChildProcess = fork(join(__dirname, 'testing', 'crash-writer.ts'), [dataDir, synchronous], {
    execArgv: ['--conditions=@mobileclaw/source', '--require', join(__dirname, '../../../../tools/register-typescript.cjs')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report: ChildReport = { events: [], steps: [] };
  let ready = false;
  let writesAfterReady = 0;
  const closed = once(child, 'close');
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: CrashWriterMessage) => {
      if (message.type === 'ready') ready = true;
      else {
        if (message.type === 'event') report.events.push(message.event);
        else report.steps.push(message.step);
        if (ready && ++writesAfterReady === WRITES_BEFORE_KILL) resolve();
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`crash writer ended early: code ${code}, signal ${signal}`)));
  });
  expect(child.kill('SIGKILL')).toBe(true);
  const [code, signal] = await closed;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  return report;
}

describe('SqliteTaskRepository after the process writing it is killed (SIGKILL)', () => {
  let dataDir: ReturnType<typeof temporaryDataDir>;
  let repository: SqliteTaskRepository | undefined;

  beforeEach(() => {
    dataDir = temporaryDataDir();
  });

  afterEach(async () => {
    await repository?.close();
    repository = undefined;
    dataDir.remove();
  });

  it.each<TaskDatabaseSynchronous>(['NORMAL', 'FULL'])(
    'keeps every committed row, gap-free event ids, and marks the running task interrupted (synchronous=%s)',
    async (synchronous) => {
      const reported = await runAndKill(dataDir.dir, synchronous);
      repository = SqliteTaskRepository.open({ dataDir: dataDir.dir, synchronous });
      const { finished, running, queued } = crashScenario;

      // The finished task and everything written before `ready` are intact, exactly.
      expect(await repository.getTask(finished.taskId)).toStrictEqual(finished);
      expect(await repository.listEvents(finished.taskId)).toStrictEqual(
        crashScenario.finishedEvents.map((event, i) => ({ taskId: finished.taskId, id: i + 1, ...event })),
      );
      expect(await repository.listSteps(finished.taskId)).toStrictEqual([stepFixture(finished.taskId, 0), stepFixture(finished.taskId, 1)]);
      for (const task of [finished, running]) {
        for (const index of [0, 1]) expect(await repository.getScreenshot(task.taskId, index)).toStrictEqual(crashScenario.screenshot(task.taskId, index));
      }

      // Every event the child reported as committed is stored, ids 1..n without gaps or duplicates.
      const events = await repository.listEvents(running.taskId);
      expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
      expect(events.slice(0, crashScenario.runningEvents.length)).toStrictEqual(
        crashScenario.runningEvents.map((event, i) => ({ taskId: running.taskId, id: i + 1, ...event })),
      );
      expect(reported.events.length).toBeGreaterThanOrEqual(WRITES_BEFORE_KILL / 2);
      for (const event of reported.events) expect(events[event.id - 1]).toStrictEqual(event);

      // Every step reported as committed is stored; steps are contiguous from 0.
      const steps = await repository.listSteps(running.taskId);
      expect(steps.map((s) => s.index)).toEqual(steps.map((_, i) => i));
      for (const step of reported.steps) expect(steps[step.index]).toStrictEqual(step);
      expect(steps.length).toBeGreaterThanOrEqual(crashScenario.firstLoopStep + reported.steps.length);

      // Start-up after the crash: the running and queued tasks become interrupted, nothing else changes.
      const at = '2026-03-02T08:00:00.000Z';
      const error = { code: 'INTERRUPTED', message: 'gateway was killed' } as const;
      const { queuePosition: _queuePosition, ...queuedRest } = queued;
      const interrupted: Task[] = [
        { ...running, status: 'interrupted', endedAt: at, error },
        { ...queuedRest, status: 'interrupted', endedAt: at, error },
      ];
      expect(await repository.interruptUnfinished('gw-a', 'gateway was killed', at)).toStrictEqual(interrupted);
      expect(await repository.getTask(running.taskId)).toStrictEqual(interrupted[0]);
      expect(await repository.listEvents(running.taskId)).toStrictEqual([
        ...events,
        { taskId: running.taskId, id: events.length + 1, type: 'task.interrupted', at, data: { reason: 'gateway was killed', status: 'interrupted' } },
      ]);
      expect(await repository.listSteps(running.taskId)).toStrictEqual(steps);
      expect(await repository.getTask(finished.taskId)).toStrictEqual(finished);
    },
  );
});
