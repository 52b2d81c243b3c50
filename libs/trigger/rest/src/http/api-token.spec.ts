import { createHash } from 'node:crypto';
import { ApiTokenCheck, apiCallerOf, recordApiCaller, withoutAccessToken } from './api-token';
import { isGuardedApiPath, isScopedTokenPath } from './api-token.middleware';

describe('withoutAccessToken', () => {
  it.each([
    ['/api/tasks', '/api/tasks'],
    ['/api/tasks?access_token=s3cret', '/api/tasks'],
    ['/api/tasks?limit=5&access_token=s3cret&status=queued', '/api/tasks?limit=5&status=queued'],
    ['/api/tasks?access_token=a&access_token=b&limit=5', '/api/tasks?limit=5'],
    ['/api/tasks?access%5Ftoken=s3cret', '/api/tasks'],
    ['/api/tasks?my_access_token=kept&access_token', '/api/tasks?my_access_token=kept'],
    ['/api/tasks?limit=5#access_token=x', '/api/tasks?limit=5#access_token=x'],
  ])('%s → %s', (url, expected) => {
    expect(withoutAccessToken(url)).toBe(expected);
  });
});

describe('ApiTokenCheck', () => {
  const check = new ApiTokenCheck('api-token-0123456789');
  const refusal = (method: string, url: string, authorization?: string) => check.refusal({ method, url, headers: authorization ? { authorization } : {} })?.message;

  it('accepts the bearer header, or the query parameter on GETs', () => {
    expect(refusal('POST', '/api/tasks', 'Bearer api-token-0123456789')).toBeUndefined();
    expect(refusal('GET', '/api/tasks?access_token=api-token-0123456789')).toBeUndefined();
    expect(new ApiTokenCheck(undefined).refusal({ method: 'GET', headers: {} })).toBeUndefined();
  });

  it('says "invalid API token" whenever a token was sent, "missing" only when none was', () => {
    expect(refusal('GET', '/api/tasks', 'Bearer wrong')).toBe('invalid API token');
    expect(refusal('GET', '/api/tasks?access_token=wrong')).toBe('invalid API token');
    expect(refusal('GET', '/api/tasks?access_token=')).toBe('invalid API token');
    expect(refusal('GET', '/api/tasks?access_token=api-token-0123456789&access_token=api-token-0123456789')).toBe('invalid API token');
    expect(refusal('GET', '/api/tasks')).toBe('missing "Authorization: Bearer <token>" header');
    expect(refusal('POST', '/api/tasks?access_token=api-token-0123456789')).toBe('missing "Authorization: Bearer <token>" header');
  });

  it('without a token, refuses a request that came through a proxy', () => {
    const open = new ApiTokenCheck(undefined);
    const refused = open.refusal({ method: 'GET', url: '/api/pairing', headers: { host: '127.0.0.1:3000', 'x-forwarded-for': '203.0.113.7' } });
    expect({ code: refused?.code, message: refused?.message }).toEqual({
      code: 'PROXIED_WITHOUT_API_TOKEN',
      message: 'this request came through a proxy (X-Forwarded-For header); set MOBILECLAW_API_TOKEN to serve it',
    });
    expect(open.refusal({ method: 'GET', url: '/api/pairing', headers: { host: '127.0.0.1:3000' } })).toBeUndefined();
  });

  it('with a token, applies the token rules to proxied requests too', () => {
    const proxied = (authorization?: string) =>
      check.refusal({ method: 'GET', url: '/api/devices', headers: { 'x-forwarded-for': '203.0.113.7', ...(authorization ? { authorization } : {}) } })?.code;
    expect(proxied('Bearer api-token-0123456789')).toBeUndefined();
    expect(proxied('Bearer wrong')).toBe('UNAUTHORIZED');
    expect(proxied()).toBe('UNAUTHORIZED');
  });

  it('without a token, refuses only a Host that is neither loopback nor allowed (HOST_NOT_ALLOWED); with one, any Host', () => {
    const open = new ApiTokenCheck(undefined, ['phone-gw.lan']);
    const code = (c: ApiTokenCheck, host: string, authorization?: string) => c.refusal({ method: 'GET', url: '/api/pairing', headers: { host, ...(authorization ? { authorization } : {}) } })?.code;
    expect(code(open, 'evil.com')).toBe('HOST_NOT_ALLOWED');
    expect(code(open, '127.0.0.1:3000')).toBeUndefined();
    expect(code(open, 'phone-gw.lan:3000')).toBeUndefined();
    expect(code(check, 'evil.com', 'Bearer api-token-0123456789')).toBeUndefined();
    expect(code(check, 'evil.com')).toBe('UNAUTHORIZED');
  });
});

describe('isGuardedApiPath', () => {
  it.each([
    ['/api', true],
    ['/api/tasks', true],
    ['/API/Devices', true],
    ['/api/openapi.json', false],
    ['/api/docs', false],
    ['/api/docs/swagger-ui.css', false],
    ['/api/docsx', true],
    ['/', false],
    ['/app.js', false],
    ['/apix', false],
    ['/tools', true],
    ['/tools/invoke', true],
    ['/Tools/Invoke', true],
    ['/toolsx', false],
  ])('%s → %s', (path, guarded) => {
    expect(isGuardedApiPath(path)).toBe(guarded);
  });
});

describe('ApiTokenCheck with scoped tokens', () => {
  const kioskToken = 'kiosk-token-0123456789';
  const check = new ApiTokenCheck('api-token-0123456789', [], [
    { name: 'crm', token: 'crm-token-0123456789', scopes: ['context:crm-*'] },
    { name: 'kiosk', sha256: createHash('sha256').update(kioskToken).digest('hex'), scopes: ['device:sim-1'] },
  ]);
  const asked = (authorization: string | undefined, url = '/api/memory?scope=device:sim-1&q=x', method = 'GET') => ({ method, url, headers: authorization ? { authorization } : {} });

  it('tells the API token from each scoped token, given as itself or by its SHA-256', () => {
    expect(check.callerOf(asked('Bearer api-token-0123456789'))).toEqual({ kind: 'full' });
    expect(check.callerOf(asked('Bearer crm-token-0123456789'))).toEqual({ kind: 'scoped', name: 'crm', scopes: ['context:crm-*'] });
    expect(check.callerOf(asked(`Bearer ${kioskToken}`))).toEqual({ kind: 'scoped', name: 'kiosk', scopes: ['device:sim-1'] });
    expect(check.callerOf(asked(undefined, `/api/memory?scope=device:sim-1&q=x&access_token=${kioskToken}`))).toEqual({ kind: 'scoped', name: 'kiosk', scopes: ['device:sim-1'] });
  });

  it('refuses an unknown token 401 as before, whatever scoped tokens exist', () => {
    const refused = check.callerOf(asked('Bearer crm-token-01234567890'));
    expect(refused).toMatchObject({ code: 'UNAUTHORIZED', message: 'invalid API token' });
    expect(check.callerOf(asked(undefined))).toMatchObject({ code: 'UNAUTHORIZED', message: 'missing "Authorization: Bearer <token>" header' });
  });

  it('refuses a scoped token 403 TOKEN_SCOPE_FORBIDDEN where only the API token is accepted, naming the token, never quoting it', () => {
    const refused = check.refusal(asked('Bearer crm-token-0123456789', '/api/tasks', 'POST'));
    expect({ code: refused?.code, message: refused?.message }).toEqual({
      code: 'TOKEN_SCOPE_FORBIDDEN',
      message: 'the API token "crm" is scoped: it reaches only /api/memory of its scopes; this needs MOBILECLAW_API_TOKEN',
    });
    expect(check.refusal(asked('Bearer api-token-0123456789', '/api/tasks', 'POST'))).toBeUndefined();
  });

  it('refuses scoped tokens without the API token: an open API would restrict nothing', () => {
    expect(() => new ApiTokenCheck(undefined, [], [{ name: 'crm', token: 'crm-token-0123456789', scopes: ['context:crm-*'] }])).toThrow(
      'scoped API tokens need the API token: without it the API is open to every local caller, and a scoped token would restrict nothing',
    );
  });

  it('knows no scoped token where none was given: a face built without them answers 401', () => {
    expect(new ApiTokenCheck('api-token-0123456789').refusal(asked('Bearer crm-token-0123456789'))).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('records the caller per request, and fails closed for a request no guard saw', () => {
    const request = {};
    expect(() => apiCallerOf(request)).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
    recordApiCaller(request, { kind: 'scoped', name: 'crm', scopes: ['context:crm-*'] });
    expect(apiCallerOf(request)).toEqual({ kind: 'scoped', name: 'crm', scopes: ['context:crm-*'] });
    expect(() => apiCallerOf({})).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
  });
});

describe('isScopedTokenPath', () => {
  it.each([
    ['/api/memory', true],
    ['/api/memory/', true],
    ['/API/Memory/records', true],
    ['/api/memory/mem_000000000000000000000001', true],
    ['/api/memoryx', false],
    ['/api/tasks', false],
    ['/api/tools/memory_search/invoke', false],
    ['/tools/invoke', false],
  ])('%s → %s', (path, scoped) => {
    expect(isScopedTokenPath(path)).toBe(scoped);
  });
});
