import { EventsSocketAccess } from './events-socket-access';

const upgrade = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers: { host: '192.168.1.5:8080', ...headers } });

describe('EventsSocketAccess', () => {
  const access = new EventsSocketAccess({ apiToken: 'api-token-0123456789', allowedOrigins: ['app.example.com', 'https://tools.example.org:8443'] });

  it('takes the API token as a Bearer header or the access_token parameter', () => {
    expect(access.refusal(upgrade('/ws/events', { authorization: 'Bearer api-token-0123456789' }))).toBeUndefined();
    expect(access.refusal(upgrade('/ws/events?access_token=api-token-0123456789'))).toBeUndefined();
    expect(access.refusal(upgrade('/ws/events'))).toEqual({ code: 4401, reason: 'unauthorized: missing API token (Bearer header or access_token)' });
    expect(access.refusal(upgrade('/ws/events?access_token=nope'))).toEqual({ code: 4401, reason: 'unauthorized: invalid API token' });
    expect(new EventsSocketAccess({ allowedHosts: ['192.168.1.5'] }).refusal(upgrade('/ws/events'))).toBeUndefined();
  });

  it('without a token, serves only loopback and allowed hosts, and trusts "Origin equals Host" only for them', () => {
    const open = new EventsSocketAccess({ allowedHosts: ['phone-gw.lan'] });
    const refused = { code: 4403, reason: 'HOST_NOT_ALLOWED: host not allowed without an API token (MOBILECLAW_ALLOWED_HOSTS)' };
    // A DNS-rebinding page: its own name in Host and Origin alike.
    expect(open.refusal(upgrade('/ws/events', { host: 'evil.example:8080', origin: 'http://evil.example:8080' }))).toEqual(refused);
    expect(open.refusal(upgrade('/ws/events', { host: '192.168.1.5:8080' }))).toEqual(refused);
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'phone-gw.lan:3000', 'PHONE-GW.LAN']) {
      expect(open.refusal(upgrade('/ws/events', { host }))).toBeUndefined();
    }
    expect(open.refusal(upgrade('/ws/events', { host: 'phone-gw.lan:3000', origin: 'http://phone-gw.lan:3000' }))).toBeUndefined();
    // With a token the token is the defence: any Host.
    expect(access.refusal(upgrade('/ws/events?access_token=api-token-0123456789', { host: 'evil.example' }))).toBeUndefined();
  });

  it.each([
    ['http://192.168.1.5:8080', true],
    ['http://192.168.1.5:8081', false],
    ['http://localhost:5173', true],
    ['http://127.0.0.1', true],
    ['http://[::1]:3000', true],
    ['http://app.example.com:9000', true],
    ['https://tools.example.org:8443', true],
    ['https://tools.example.org', false],
    ['https://evil.example', false],
    ['null', false],
  ])('a page of origin %s: allowed %s', (origin, allowed) => {
    const refusal = access.refusal(upgrade('/ws/events?access_token=api-token-0123456789', { origin }));
    expect(refusal).toEqual(allowed ? undefined : { code: 4403, reason: 'origin not allowed (MOBILECLAW_CORS_ORIGINS)' });
  });

  it('without an API token, refuses an upgrade that came through a proxy with 4403', () => {
    const open = new EventsSocketAccess({});
    const refusal = open.refusal(upgrade('/ws/events', { 'x-forwarded-proto': 'https', origin: 'http://192.168.1.5:8080' }));
    expect(refusal).toEqual({ code: 4403, reason: 'this request came through a proxy (X-Forwarded-Proto header); set MOBILECLAW_API_TOKEN to serve it' });
    expect(Buffer.byteLength(refusal?.reason ?? '')).toBeLessThanOrEqual(123);
    expect(access.refusal(upgrade('/ws/events?access_token=api-token-0123456789', { 'x-forwarded-for': '203.0.113.7' }))).toBeUndefined();
  });

  it('checks the origin before the token', () => {
    expect(access.refusal(upgrade('/ws/events', { origin: 'https://evil.example' }))?.code).toBe(4403);
  });
});
