/**
 * Webhooks that callers register on a task (A2A push notification configs): each status change of
 * the task is POSTed to them.
 */

/** How the webhook authenticates the gateway's calls. */
export interface PushNotificationAuthentication {
  /** An HTTP authentication scheme, e.g. `Bearer` or `Basic`. */
  scheme: string;
  /** Sent as `Authorization: <scheme> <credentials>`. */
  credentials: string;
}

export interface PushNotificationConfig {
  taskId: string;
  /** Unique per task; 1–128 chars. */
  configId: string;
  /** An http: or https: URL. */
  url: string;
  /** Sent back in each call (`X-A2A-Notification-Token`), so that the webhook can tell the calls are the ones it asked for. */
  token?: string;
  authentication?: PushNotificationAuthentication;
}

/**
 * Where push notification configs live. Abstract class so that it doubles as the Nest DI token.
 * Values go in and come out as copies. Every adapter passes `describePushNotificationConfigStoreContract`
 * (`@mobileclaw/domain/testing`). Failures (as rejections): `STORAGE_ERROR`, `SHUTTING_DOWN` after close.
 */
export abstract class PushNotificationConfigStore {
  /** Inserts or replaces the config `(taskId, configId)`. */
  abstract save(config: PushNotificationConfig): Promise<void>;
  /** The config, or undefined. */
  abstract get(taskId: string, configId: string): Promise<PushNotificationConfig | undefined>;
  /** A task's configs, by `configId`. */
  abstract list(taskId: string): Promise<PushNotificationConfig[]>;
  /** Deletes the config; true when there was one. */
  abstract delete(taskId: string, configId: string): Promise<boolean>;
}
