import { isLoopbackHost, validateGatewayEnvironment } from './gateway-config';

describe('MOBILECLAW_HTTP_HOST without MOBILECLAW_API_TOKEN', () => {
  it.each(['127.0.0.1', '127.0.0.2', '127.255.255.254', 'localhost', 'LOCALHOST', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:127.1.2.3', '::ffff:7f00:2'])('accepts the loopback host %s', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    expect(validateGatewayEnvironment({ MOBILECLAW_HTTP_HOST: host })).toMatchObject({ MOBILECLAW_HTTP_HOST: host });
  });

  it.each(['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', '::2', 'example.com', '127.0.0.1.example.com'])('refuses %s, which reaches beyond this machine', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(() => validateGatewayEnvironment({ MOBILECLAW_HTTP_HOST: host })).toThrow(`MOBILECLAW_HTTP_HOST=${host} exposes the API beyond this machine: set MOBILECLAW_API_TOKEN too`);
    expect(validateGatewayEnvironment({ MOBILECLAW_HTTP_HOST: host, MOBILECLAW_API_TOKEN: 'a-token-of-sixteen-chars' })).toMatchObject({ MOBILECLAW_HTTP_HOST: host });
  });
});
