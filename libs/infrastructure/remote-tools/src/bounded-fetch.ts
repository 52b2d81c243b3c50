/** The body of a remote answer grew past the configured limit; reading it stopped there. */
export class ResponseTooLargeError extends Error {
  /** @param limitBytes the limit that was passed, in bytes */
  constructor(readonly limitBytes: number) {
    super(`the answer exceeds ${limitBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Statuses whose responses carry no body (a `Response` with one cannot be built). */
const BODYLESS_STATUSES = new Set([101, 204, 205, 304]);

/**
 * `fetch` whose response bodies are cut off after `maxBytes`: reading past the limit (with `text()`,
 * `json()` or a stream reader) rejects with {@link ResponseTooLargeError} and cancels the transfer, so
 * a remote server cannot make the gateway buffer more than that. A declared `Content-Length` above the
 * limit fails before the first byte is read. Requests pass through unchanged.
 */
export function boundedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null || BODYLESS_STATUSES.has(response.status)) return response;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    let seen = Number.isFinite(declared) && declared > maxBytes ? maxBytes + 1 : 0;
    const capped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          if (seen > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
        },
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(capped, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** `fetch` that adds `Authorization: Bearer <token>` to every request (none when `token` is undefined). */
export function bearerFetch(token: string | undefined, base: typeof fetch = fetch): typeof fetch {
  if (token === undefined) return base;
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('authorization', `Bearer ${token}`);
    return base(input, { ...init, headers });
  };
}

/** The remote refused the credentials it was sent (HTTP 401 or 403). */
export class CredentialsRefusedError extends Error {
  /** @param status the HTTP status, 401 or 403 */
  constructor(readonly status: number) {
    super(`the credentials were refused (HTTP ${status})`);
    this.name = 'CredentialsRefusedError';
  }
}

/**
 * `fetch` that rejects with {@link CredentialsRefusedError} on HTTP 401 and 403: for clients (the A2A
 * SDK's) that would otherwise report a refusal as an unexplained error.
 */
export function refusalFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 401 && response.status !== 403) return response;
    await response.body?.cancel();
    throw new CredentialsRefusedError(response.status);
  };
}

/** The {@link CredentialsRefusedError} in `err` or its chain of causes, if any. */
export function credentialsRefusal(err: unknown): CredentialsRefusedError | undefined {
  for (let current = err, depth = 0; typeof current === 'object' && current !== null && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof CredentialsRefusedError) return current;
  }
  return undefined;
}
