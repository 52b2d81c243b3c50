import { connect } from 'node:net';

/** One HTTP/1.1 response as it came over the wire. */
export interface RawHttpResponse {
  /** The status code, e.g. 200. */
  status: number;
  /** The header fields, names in lower case (a repeated field: its last value). */
  headers: Record<string, string>;
  /** The body as UTF-8 text (`Content-Length` bytes; without it, everything up to the close). */
  body: string;
}

/**
 * Writes `request` (raw HTTP/1.1 bytes, one write per chunk, so that a head and its body can come
 * apart) on one TCP connection to `127.0.0.1:port`, and resolves with the first `count` responses.
 * For requests that no HTTP client sends as needed (e.g. `Upgrade: h2c` with a body).
 * @throws Error when the connection fails, or closes before `count` responses came.
 */
export function rawHttpExchange(port: number, request: string[], count = 1): Promise<RawHttpResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const responses: RawHttpResponse[] = [];
    let received = Buffer.alloc(0);
    const take = (ended: boolean): void => {
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...fields] = received.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(fields.map((field) => [field.slice(0, field.indexOf(':')).trim().toLowerCase(), field.slice(field.indexOf(':') + 1).trim()]));
        const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
        if (length === undefined && !ended) return;
        const bodyEnd = length === undefined ? received.length : end + 4 + length;
        if (received.length < bodyEnd) return;
        responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: received.subarray(end + 4, bodyEnd).toString('utf8') });
        received = received.subarray(bodyEnd);
        if (responses.length === count) {
          socket.destroy();
          resolve(responses);
          return;
        }
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      take(false);
    });
    socket.on('end', () => {
      take(true);
      if (responses.length < count) reject(new Error(`the server closed the connection after ${responses.length} of ${count} responses`));
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      for (const chunk of request) socket.write(chunk);
    });
  });
}
