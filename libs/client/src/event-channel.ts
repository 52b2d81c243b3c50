/**
 * A one-consumer queue between a producer that runs on its own (the stream reader, which must not wait
 * for the app) and the app's `for await`: items wait until pulled; `end` finishes the iteration after
 * the queued items, with `error` thrown after them when given.
 */
export class EventChannel<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private ended = false;
  private error: unknown;
  private waiter?: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void };

  /** @param onReturn runs once when the consumer stops early (`break`, `return`, a throw in its loop). */
  constructor(private readonly onReturn: () => void = () => undefined) {}

  push(item: T): void {
    if (this.ended) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    if (this.waiter && this.items.length === 0) {
      const waiter = this.waiter;
      this.waiter = undefined;
      if (error === undefined) waiter.resolve({ value: undefined, done: true });
      else waiter.reject(error);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift() as T, done: false });
    if (this.ended) {
      const error = this.error;
      this.error = undefined;
      return error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(error);
    }
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.ended) {
      this.ended = true;
      this.items.length = 0;
      this.onReturn();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
