import { IdSource } from '@mobileclaw/domain';

/**
 * The default {@link IdSource}: random version-4 UUIDs (`crypto.randomUUID()`, 122 random bits), unique
 * across instances without coordination.
 */
export class RandomIdSource extends IdSource {
  override taskId(): string {
    return globalThis.crypto.randomUUID();
  }
}
