import { PROXY_FORWARDING_HEADERS, forwardingHeaderOf, proxiedRequestRefusal } from './proxied-request';

describe('proxiedRequestRefusal', () => {
  it.each([
    ['forwarded', 'for=203.0.113.7;proto=https', 'Forwarded'],
    ['x-forwarded-for', '203.0.113.7', 'X-Forwarded-For'],
    ['x-forwarded-host', 'gateway.example.com', 'X-Forwarded-Host'],
    ['x-forwarded-proto', 'https', 'X-Forwarded-Proto'],
    ['x-real-ip', '203.0.113.7', 'X-Real-IP'],
  ])('refuses a request with %s when no API token is configured', (name, value, shown) => {
    const refusal = proxiedRequestRefusal({ host: '127.0.0.1:3000', [name]: value }, false);
    expect({ code: refusal?.code, message: refusal?.message }).toEqual({
      code: 'PROXIED_WITHOUT_API_TOKEN',
      message: `this request came through a proxy (${shown} header); set MOBILECLAW_API_TOKEN to serve it`,
    });
  });

  it('lets a request without forwarding headers through', () => {
    expect(proxiedRequestRefusal({ host: '127.0.0.1:3000', 'x-forwarded-prefix': '/phones', origin: 'http://localhost:3000' }, false)).toBeUndefined();
  });

  it('leaves proxied requests to the token rules once a token is configured', () => {
    expect(proxiedRequestRefusal({ 'x-forwarded-for': '203.0.113.7' }, true)).toBeUndefined();
  });

  it('counts a header present with an empty value or repeated', () => {
    expect(forwardingHeaderOf({ 'x-forwarded-for': '' })).toBe('x-forwarded-for');
    expect(forwardingHeaderOf({ forwarded: ['for=a', 'for=b'] })).toBe('forwarded');
    expect(forwardingHeaderOf({})).toBeUndefined();
    expect(PROXY_FORWARDING_HEADERS).toEqual(['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip']);
  });
});
