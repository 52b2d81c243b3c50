import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkMcpEndpoint, InvalidGatewayUrlError, mcpEndpointUrl } from './mcp-endpoint';

describe('mcpEndpointUrl', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/mcp'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000/mcp'],
    ['http://127.0.0.1:3000/mcp', 'http://127.0.0.1:3000/mcp'],
    ['http://127.0.0.1:3000/mcp/', 'http://127.0.0.1:3000/mcp'],
    ['https://claw.example/gateway', 'https://claw.example/gateway/mcp'],
    ['https://claw.example/gateway/mcp?x=1#top', 'https://claw.example/gateway/mcp'],
    ['http://[::1]:3000', 'http://[::1]:3000/mcp'],
  ])('%s → %s', (value, endpoint) => {
    expect(mcpEndpointUrl(value).href).toBe(endpoint);
  });

  it.each(['127.0.0.1:3000', 'ftp://claw.example', 'not a url', ''])('rejects %j with INVALID_GATEWAY_URL', (value) => {
    const error = (() => {
      try {
        mcpEndpointUrl(value);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidGatewayUrlError);
    expect(error).toMatchObject({ code: 'INVALID_GATEWAY_URL', value });
  });
});

describe('checkMcpEndpoint', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  /** An HTTP server whose every answer `respond` writes; returns its /mcp URL. */
  async function serve(respond: (res: ServerResponse, headers: Record<string, string | string[] | undefined>) => void): Promise<URL> {
    server = createServer((req, res) => respond(res, req.headers)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  }

  it('sends a GET for an event stream with the bearer token, and takes 405 as reachable', async () => {
    const requests: Record<string, string | string[] | undefined>[] = [];
    const url = await serve((res, headers) => {
      requests.push(headers);
      res.writeHead(405).end();
    });
    expect(await checkMcpEndpoint(url, 'the-token', 1000)).toBeUndefined();
    expect(requests).toEqual([expect.objectContaining({ accept: 'text/event-stream', authorization: 'Bearer the-token' })]);
  });

  it('takes an opened event stream as reachable and drops it', async () => {
    const url = await serve((res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n'));
    const closed = new Promise<void>((resolve) => server!.on('request', (_req, res: ServerResponse) => res.on('close', resolve)));
    expect(await checkMcpEndpoint(url, undefined, 1000)).toBeUndefined();
    await closed;
  });

  it.each([
    [401, { kind: 'token-rejected', httpStatus: 401 }],
    [403, { kind: 'token-rejected', httpStatus: 403 }],
    [404, { kind: 'not-found' }],
    [502, { kind: 'unreachable', detail: 'HTTP 502 Bad Gateway' }],
    [400, undefined],
  ])('maps HTTP %i to %j', async (status, problem) => {
    const url = await serve((res) => res.writeHead(status).end());
    expect(await checkMcpEndpoint(url, undefined, 1000)).toEqual(problem);
  });

  it('reports a refused connection', async () => {
    const url = await serve((res) => res.end());
    await new Promise((resolve) => server!.close(resolve));
    expect(await checkMcpEndpoint(url, undefined, 1000)).toEqual({ kind: 'unreachable', detail: 'connection refused' });
  });

  it('gives up after timeoutMs when the server never answers', async () => {
    const url = await serve(() => undefined);
    expect(await checkMcpEndpoint(url, undefined, 50)).toEqual({ kind: 'unreachable', detail: 'no answer within 50 ms' });
  });
});
