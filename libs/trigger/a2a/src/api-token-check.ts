import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The REST API's bearer rule on the A2A endpoint: `Authorization: Bearer <token>`, surrounding spaces
 * ignored, compared in constant time on SHA-256 digests. Open when no token is configured (the
 * gateway then binds loopback only).
 */
export class ApiTokenCheck {
  private readonly expected?: Buffer;

  constructor(apiToken: string | undefined) {
    if (apiToken) this.expected = digest(apiToken);
  }

  get required(): boolean {
    return this.expected !== undefined;
  }

  /** Why a request with this `Authorization` header is refused, or undefined when it is authorized. */
  refusal(authorization: string | undefined): string | undefined {
    if (this.expected === undefined) return undefined;
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!match) return 'missing "Authorization: Bearer <token>" header (the API token, MOBILECLAW_API_TOKEN)';
    return timingSafeEqual(digest(match[1].trim()), this.expected) ? undefined : 'invalid API token';
  }
}
