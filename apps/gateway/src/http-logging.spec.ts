import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { httpLoggingOptions } from './http-logging';
import { LogTaskContext } from './task-log-context';

/** A pino destination collecting each line. */
function lineSink(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

describe('HTTP logging', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A server logging one line per request through the gateway's pino-http options; resolves its base URL. */
  async function serve(lines: Writable): Promise<string> {
    const logger = pinoHttp(httpLoggingOptions('info'), lines);
    server = createServer((req, res) => {
      logger(req, res);
      req.log.info('handling');
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  it('keeps the API token out of every line: header, query and the request URL', async () => {
    const { lines, stream } = lineSink();
    const base = await serve(stream);
    await fetch(`${base}/api/tasks?limit=5&access_token=query-secret-0123456789`, { headers: { authorization: 'Bearer header-secret-0123456789', cookie: 'session=cookie-secret' } });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { msg: string; service: string; req: { url: string; headers: { authorization: string; cookie: string } } };
    expect(line).toMatchObject({ msg: 'handling', service: 'mobileclaw-gateway', req: { url: '/api/tasks?limit=5', headers: { authorization: '[Redacted]', cookie: '[Redacted]' } } });
    expect(lines[0]).not.toMatch(/secret/);
  });

  it('gives each request an id: the X-Request-Id it sent when acceptable, else a new UUID; the answer carries it', async () => {
    const { lines, stream } = lineSink();
    const base = await serve(stream);
    const adopted = await fetch(`${base}/a`, { headers: { 'x-request-id': 'trace-42:abc' } });
    const generated = await fetch(`${base}/b`);
    const tooLong = await fetch(`${base}/c`, { headers: { 'x-request-id': 'x'.repeat(129) } });
    const withSpace = await fetch(`${base}/d`, { headers: { 'x-request-id': 'two words' } });
    const ids = lines.map((l) => (JSON.parse(l) as { req: { id: string } }).req.id);
    expect(ids[0]).toBe('trace-42:abc');
    expect(adopted.headers.get('x-request-id')).toBe('trace-42:abc');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const [i, res] of [generated, tooLong, withSpace].entries()) {
      expect(ids[i + 1]).toMatch(uuid);
      expect(res.headers.get('x-request-id')).toBe(ids[i + 1]);
    }
    expect(new Set(ids).size).toBe(4);
  });

  it('redacts secrets and typed text logged as fields, at the top or one level down', () => {
    const { lines, stream } = lineSink();
    const logger = pino(httpLoggingOptions('info'), stream);
    logger.info({ token: 'device-secret', command: { command: 'input', text: 'hunter2' }, llm: { apiKey: 'sk-secret' }, apiToken: 'api-secret' }, 'fields');
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ token: '[Redacted]', command: { command: 'input', text: '[Redacted]' }, llm: { apiKey: '[Redacted]' }, apiToken: '[Redacted]' });
    expect(lines[0]).not.toMatch(/secret|hunter2/);
  });
});

describe('LogTaskContext', () => {
  it('puts the task on every line its work logs, even after awaits and timers, and nothing of the caller context', async () => {
    const { lines, stream } = lineSink();
    const logger = pino(httpLoggingOptions('info'), stream);
    const context = new LogTaskContext();
    const request = new AsyncLocalStorage<string>();
    let seenRequest: string | undefined = 'unset';
    await request.run('request-1', () =>
      context.run({ taskId: 'task-1', deviceId: 'phone-1' }, async () => {
        logger.info('first');
        await new Promise<void>((resolve) => setImmediate(resolve));
        seenRequest = request.getStore();
        logger.info('after a turn of the loop');
      }),
    );
    logger.info('outside');
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; taskId?: string; deviceId?: string });
    expect(parsed.map(({ msg, taskId, deviceId }) => ({ msg, taskId, deviceId }))).toEqual([
      { msg: 'first', taskId: 'task-1', deviceId: 'phone-1' },
      { msg: 'after a turn of the loop', taskId: 'task-1', deviceId: 'phone-1' },
      { msg: 'outside', taskId: undefined, deviceId: undefined },
    ]);
    // The request the task was started from does not follow it.
    expect(seenRequest).toBeUndefined();
  });
});
