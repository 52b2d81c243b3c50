import { MobileClawError, type IdempotentResponse } from '@mobileclaw/domain';
import { DEFAULT_TASK_CASE_OPTIONS } from './task-case.options';
import { IdempotentCreation, canonicalJson, requestHash } from './idempotent-creation';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import { SettableClock } from '@mobileclaw/domain/testing';

function creation(clock = new SettableClock('2026-03-01T10:00:00.000Z')): IdempotentCreation {
  return new IdempotentCreation({ ...DEFAULT_TASK_CASE_OPTIONS, idempotencyTtlMs: 60_000 }, new InMemoryIdempotencyStore(), clock);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as MobileClawError).code;
  }
  throw new Error('expected a rejection');
}

describe('IdempotentCreation', () => {
  it('hashes content, not its key order or undefined members', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: undefined }], a: 'x' })).toBe('{"a":"x","b":[1,{"d":2}]}');
    expect(requestHash({ goal: 'g', deviceId: 'd' })).toBe(requestHash({ deviceId: 'd', goal: 'g' }));
    expect(requestHash({ goal: 'g' })).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ goal: 'g' })).not.toBe(requestHash({ goal: 'h' }));
  });

  it('runs the creation once; a retry gets its answer; other content is IDEMPOTENCY_KEY_REUSED', async () => {
    const idempotency = creation();
    let runs = 0;
    const create = async (): Promise<IdempotentResponse> => ({ status: 202, body: { taskId: `t-${++runs}` } });
    expect(await idempotency.run('rest', 'k1', { goal: 'a' }, create)).toStrictEqual({ response: { status: 202, body: { taskId: 't-1' } }, replayed: false });
    expect(await idempotency.run('rest', 'k1', { goal: 'a' }, create)).toStrictEqual({ response: { status: 202, body: { taskId: 't-1' } }, replayed: true });
    expect(await codeOf(idempotency.run('rest', 'k1', { goal: 'b' }, create))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(runs).toBe(1);
  });

  it('answers IDEMPOTENCY_KEY_IN_PROGRESS while the first creation with the key has not answered', async () => {
    const idempotency = creation();
    let finish!: (response: IdempotentResponse) => void;
    const first = idempotency.run('rest', 'k2', { goal: 'a' }, () => new Promise<IdempotentResponse>((resolve) => (finish = resolve)));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(await codeOf(idempotency.run('rest', 'k2', { goal: 'a' }, async () => ({ status: 202, body: {} })))).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    finish({ status: 202, body: { taskId: 't-1' } });
    expect((await first).replayed).toBe(false);
    expect((await idempotency.run('rest', 'k2', { goal: 'a' }, async () => ({ status: 202, body: {} }))).response.body).toStrictEqual({ taskId: 't-1' });
  });

  it('forgets the key of a failed creation, so that a retry runs anew; rejects malformed keys', async () => {
    const idempotency = creation();
    const failure = new MobileClawError('DEVICE_NOT_FOUND', 'no such device');
    await expect(idempotency.run('rest', 'k3', { goal: 'a' }, async () => Promise.reject(failure))).rejects.toBe(failure);
    expect((await idempotency.run('rest', 'k3', { goal: 'b' }, async () => ({ status: 202, body: { taskId: 't-2' } }))).replayed).toBe(false);
    for (const key of ['', 'with space', 'x'.repeat(257), 'é']) {
      expect(await codeOf(idempotency.run('rest', key, {}, async () => ({ status: 202, body: {} })))).toBe('VALIDATION_FAILED');
    }
  });
});
