import type { Response } from 'express';

/** An AbortSignal that fires when the HTTP client goes away before the answer (the work is then withdrawn). */
export function clientGone(response: Response): AbortSignal {
  const controller = new AbortController();
  // The response closes when the connection does; unfinished means nobody will read the answer.
  // (The request's own 'close' fires as soon as its body is read, so it cannot tell.)
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
