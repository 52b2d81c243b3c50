import type { PushNotificationConfig, PushNotificationConfigStore } from '../push-notification-config-store';

export interface PushNotificationConfigStoreContractHooks {
  /** Opens a new, empty store; called before every test. */
  create(): Promise<PushNotificationConfigStore>;
  /** Opens the storage of the store `create` made once more (durable stores only). */
  reopen?(): Promise<PushNotificationConfigStore>;
  /** Called after every test. */
  dispose?(): Promise<void>;
}

const config = (taskId: string, configId: string, extra: Partial<PushNotificationConfig> = {}): PushNotificationConfig => ({ taskId, configId, url: `https://hooks.example.org/${taskId}/${configId}`, ...extra });

/** Registers the `describe`/`it` blocks every {@link PushNotificationConfigStore} adapter must pass. */
export function describePushNotificationConfigStoreContract(name: string, hooks: PushNotificationConfigStoreContractHooks): void {
  describe(`${name} (PushNotificationConfigStore contract)`, () => {
    let store: PushNotificationConfigStore;
    beforeEach(async () => {
      store = await hooks.create();
    });
    afterEach(async () => {
      await hooks.dispose?.();
    });

    it('saves, replaces, reads, lists by config id and deletes configs, per task', async () => {
      const full = config('t-1', 'b', { token: 'tok', authentication: { scheme: 'Bearer', credentials: 'secret' } });
      await store.save(full);
      await store.save(config('t-1', 'a'));
      await store.save(config('t-2', 'a'));
      expect(await store.get('t-1', 'b')).toStrictEqual(full);
      expect((await store.list('t-1')).map((c) => c.configId)).toStrictEqual(['a', 'b']);
      await store.save(config('t-1', 'b', { url: 'http://127.0.0.1:9/other' }));
      expect(await store.get('t-1', 'b')).toStrictEqual(config('t-1', 'b', { url: 'http://127.0.0.1:9/other' }));
      expect(await store.delete('t-1', 'b')).toBe(true);
      expect(await store.delete('t-1', 'b')).toBe(false);
      expect(await store.get('t-1', 'b')).toBeUndefined();
      expect(await store.list('t-1')).toStrictEqual([config('t-1', 'a')]);
      expect(await store.list('t-3')).toStrictEqual([]);
    });

    it('hands out copies', async () => {
      const saved = config('t-1', 'a', { authentication: { scheme: 'Basic', credentials: 'x' } });
      await store.save(saved);
      saved.url = 'https://changed.example.org';
      const read = (await store.get('t-1', 'a')) as PushNotificationConfig;
      expect(read.url).toBe('https://hooks.example.org/t-1/a');
      read.authentication!.credentials = 'changed';
      expect((await store.get('t-1', 'a'))?.authentication?.credentials).toBe('x');
    });

    if (hooks.reopen) {
      const reopen = hooks.reopen;
      it('keeps configs across a restart', async () => {
        await store.save(config('t-1', 'a', { token: 'tok' }));
        store = await reopen();
        expect(await store.list('t-1')).toStrictEqual([config('t-1', 'a', { token: 'tok' })]);
      });
    }
  });
}
