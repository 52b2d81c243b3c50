import { IdempotencyStore, type IdempotencyClaim, type IdempotencyClaimRequest, type IdempotentResponse } from '@mobileclaw/domain';

interface Entry {
  requestHash: string;
  expiresAtMs: number;
  response?: IdempotentResponse;
}

/**
 * An {@link IdempotencyStore} in this process's memory: keys are lost on restart. The default when the
 * host provides no durable store, and the case tests' fake (it passes the port's contract suite).
 */
export class InMemoryIdempotencyStore extends IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  override async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const id = entryId(request.scope, request.key);
    const entry = this.entries.get(id);
    if (entry === undefined || entry.expiresAtMs <= request.nowMs) {
      this.entries.set(id, { requestHash: request.requestHash, expiresAtMs: request.nowMs + request.ttlMs });
      return { outcome: 'claimed' };
    }
    if (entry.requestHash !== request.requestHash) return { outcome: 'mismatch' };
    if (entry.response === undefined) return { outcome: 'in_progress' };
    return { outcome: 'replay', response: structuredClone(entry.response) };
  }

  override async complete(scope: string, key: string, response: IdempotentResponse): Promise<void> {
    const entry = this.entries.get(entryId(scope, key));
    if (entry !== undefined) entry.response = structuredClone(response);
  }

  override async release(scope: string, key: string): Promise<void> {
    this.entries.delete(entryId(scope, key));
  }

  override async prune(nowMs: number): Promise<number> {
    let pruned = 0;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAtMs <= nowMs) {
        this.entries.delete(id);
        pruned++;
      }
    }
    return pruned;
  }
}

function entryId(scope: string, key: string): string {
  return JSON.stringify([scope, key]);
}
