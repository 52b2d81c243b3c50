import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { TaskRepository } from '@mobileclaw/domain';

/**
 * Health indicator `tasks-store`: the task store answers a one-row read (`listTasks({limit: 1})`).
 * Up as `{status: 'up'}`; down as `{status: 'down', message}` with the store's error message
 * (database closed, disk gone, …). Never throws.
 */
@Injectable()
export class TasksStoreHealthIndicator {
  constructor(
    private readonly repository: TaskRepository,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async check<const Key extends string>(key: Key): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    try {
      await this.repository.listTasks({ limit: 1 });
      return session.up();
    } catch (error) {
      return session.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
