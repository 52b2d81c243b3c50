import { IdSource } from '@mobileclaw/domain';

/** An {@link IdSource} that counts: `task-1`, `task-2`, … (with the given prefix), for exact ids in tests. */
export class SequentialIdSource extends IdSource {
  private issued = 0;

  constructor(private readonly prefix = 'task-') {
    super();
  }

  override taskId(): string {
    return `${this.prefix}${++this.issued}`;
  }
}
