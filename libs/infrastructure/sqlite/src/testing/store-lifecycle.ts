import { join } from 'node:path';
import { temporaryDataDir } from './temporary-data-dir';

/** A store over one database file that can be closed (the SQLite adapters of the domain's ports). */
export interface ClosableStore {
  close(): Promise<void>;
}

/**
 * The `create` / `reopen` / `dispose` hooks a domain contract suite takes, for a SQLite adapter opened
 * by `openAt(path)`: `create` opens one over a fresh temporary directory's `mobileclaw.db`, `reopen`
 * closes every open one and opens the same file again (what a restart does), `dispose` closes them and
 * removes the directory. `open()` opens another connection to the current file.
 */
export function storeLifecycle<T extends ClosableStore>(openAt: (path: string) => T, prefix: string) {
  let data: { dir: string; remove(): void } | undefined;
  const opened: T[] = [];
  const open = (): T => {
    if (!data) throw new Error('storeLifecycle: create() first');
    const store = openAt(join(data.dir, 'mobileclaw.db'));
    opened.push(store);
    return store;
  };
  const closeAll = async (): Promise<void> => {
    for (const store of opened.splice(0)) await store.close();
  };
  return {
    open,
    create: async (): Promise<T> => {
      data = temporaryDataDir(prefix);
      return open();
    },
    reopen: async (): Promise<T> => {
      await closeAll();
      return open();
    },
    dispose: async (): Promise<void> => {
      await closeAll();
      data?.remove();
      data = undefined;
    },
  };
}
