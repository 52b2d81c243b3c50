/**
 * Runs tasks one at a time per key (a promise chain each), tasks of different keys concurrently.
 * The memory serialises every change of one scope's files and index through it, so that a file
 * change racing a `remember` of the same scope never embeds a section twice or loses a row.
 * A failing task fails only its own caller; the next task of the key runs all the same.
 */
export class KeyedSerialQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` after every task queued before it under `key`; settles as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // Forget the key once its last task is done, so the map holds only busy keys.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far (under any key) has settled. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
