/**
 * Where new ids come from. An abstract class so that it doubles as the Nest DI token; a host may
 * provide its own (tests provide a sequence so that ids are exact).
 */
export abstract class IdSource {
  /**
   * A new task id, never issued before by any gateway instance that shares the task store. It must be
   * 1–128 characters of `[A-Za-z0-9._-]` starting with a letter or digit (stores keep files under it);
   * the default is a random UUID.
   */
  abstract taskId(): string;
}
