import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { TaskRepository } from '@mobileclaw/domain';

/**
 * Health indicator `tasks-store`: the task store answers a one-row read (`listTasks({limit: 1})`) —
 * or, for readiness ({@link checkWritable}), can take writes (`TaskRepository.checkWritable`).
 * Up as `{status: 'up'}`; down as `{status: 'down', message}` with the store's error message
 * (database closed, locked, read-only, disk gone, …). Never throws.
 */
@Injectable()
export class TasksStoreHealthIndicator {
  constructor(
    private readonly repository: TaskRepository,
    private readonly indicators: HealthIndicatorService,
  ) {}

  check<const Key extends string>(key: Key): Promise<HealthIndicatorResult<Key>> {
    return this.probe(key, () => this.repository.listTasks({ limit: 1 }));
  }

  /** Up when the store can take writes now. */
  checkWritable<const Key extends string>(key: Key): Promise<HealthIndicatorResult<Key>> {
    return this.probe(key, () => this.repository.checkWritable());
  }

  private async probe<const Key extends string>(key: Key, operation: () => Promise<unknown>): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    try {
      await operation();
      return session.up();
    } catch (error) {
      return session.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
