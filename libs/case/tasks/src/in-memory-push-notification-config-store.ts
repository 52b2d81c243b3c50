import { PushNotificationConfigStore, type PushNotificationConfig } from '@mobileclaw/domain';

/** A {@link PushNotificationConfigStore} in this process's memory (lost on restart): the default without a durable one, and the tests' fake. */
export class InMemoryPushNotificationConfigStore extends PushNotificationConfigStore {
  private readonly configs = new Map<string, Map<string, PushNotificationConfig>>();

  override async save(config: PushNotificationConfig): Promise<void> {
    let ofTask = this.configs.get(config.taskId);
    if (!ofTask) this.configs.set(config.taskId, (ofTask = new Map()));
    ofTask.set(config.configId, structuredClone(config));
  }

  override async get(taskId: string, configId: string): Promise<PushNotificationConfig | undefined> {
    const config = this.configs.get(taskId)?.get(configId);
    return config && structuredClone(config);
  }

  override async list(taskId: string): Promise<PushNotificationConfig[]> {
    return [...(this.configs.get(taskId)?.values() ?? [])].sort((a, b) => (a.configId < b.configId ? -1 : a.configId > b.configId ? 1 : 0)).map((c) => structuredClone(c));
  }

  override async delete(taskId: string, configId: string): Promise<boolean> {
    return this.configs.get(taskId)?.delete(configId) ?? false;
  }
}
