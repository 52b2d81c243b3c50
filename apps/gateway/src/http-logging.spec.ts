import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { httpLoggingOptions } from './http-logging';

describe('HTTP logging', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('keeps the API token out of every line: header, query and the request URL', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pinoHttp(httpLoggingOptions('info'), stream);
    server = createServer((req, res) => {
      logger(req, res);
      req.log.info('handling');
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await fetch(`http://127.0.0.1:${port}/api/tasks?limit=5&access_token=query-secret-0123456789`, { headers: { authorization: 'Bearer header-secret-0123456789' } });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as { msg: string; service: string; req: { url: string; headers: { authorization: string } } };
    expect(line).toMatchObject({ msg: 'handling', service: 'mobileclaw-gateway', req: { url: '/api/tasks?limit=5', headers: { authorization: '[Redacted]' } } });
    expect(lines[0]).not.toMatch(/secret/);
  });
});
