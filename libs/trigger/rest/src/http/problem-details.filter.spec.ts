import { HttpException, NotFoundException } from '@nestjs/common';
import { ERROR_CATALOG, ERROR_CODES, MobileClawError } from '@mobileclaw/domain';
import { HTTP_STATUS_BY_CODE, toProblem } from './problem-details.filter';

describe('problem details', () => {
  it('have an HTTP error status for every catalog code, and for nothing else', () => {
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const status = HTTP_STATUS_BY_CODE[code];
      expect({ code, integer: Number.isInteger(status), error: status >= 400 && status <= 599 }).toEqual({ code, integer: true, error: true });
    }
  });

  it('keep the statuses of the README "Errors" table', () => {
    expect(HTTP_STATUS_BY_CODE).toMatchObject({
      VALIDATION_FAILED: 400,
      UNAUTHORIZED: 401,
      PROXIED_WITHOUT_API_TOKEN: 403,
      HOST_NOT_ALLOWED: 403,
      DEVICE_NOT_FOUND: 404,
      TASK_NOT_FOUND: 404,
      NOT_FOUND: 404,
      TASK_STATE_CONFLICT: 409,
      DEVICE_BUSY: 409,
      STALE_FRAME: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      DEVICE_ERROR: 502,
      PROTOCOL_ERROR: 502,
      DEVICE_DISCONNECTED: 503,
      DEVICE_REPLACED: 503,
      SHUTTING_DOWN: 503,
      STORAGE_ERROR: 503,
      TIMEOUT: 504,
    });
  });

  it('answer a domain error with its catalog title, status and fields', () => {
    const err = new MobileClawError('DEVICE_ERROR', 'no app com.example', { deviceId: 'sim-1', requestId: 'r-7', deviceCode: 'APP_NOT_FOUND' });
    expect(JSON.stringify(toProblem(err, '/api/devices/sim-1/commands'))).toBe(
      '{"type":"urn:mobileclaw:error:DEVICE_ERROR","title":"The device reported an error","status":502,"detail":"no app com.example",' +
        '"instance":"/api/devices/sim-1/commands","code":"DEVICE_ERROR","deviceId":"sim-1","requestId":"r-7","deviceCode":"APP_NOT_FOUND"}',
    );
    for (const code of ERROR_CODES) {
      expect(toProblem(new MobileClawError(code, 'x'), '/')).toMatchObject({ type: `urn:mobileclaw:error:${code}`, code, title: ERROR_CATALOG[code].title, status: HTTP_STATUS_BY_CODE[code] });
    }
  });

  it('answer an unknown route with NOT_FOUND and its catalog title', () => {
    const problem = toProblem(new NotFoundException('Cannot GET /api/nope'), '/api/nope');
    expect(problem).toEqual({ type: 'urn:mobileclaw:error:NOT_FOUND', title: 'Not found', status: 404, detail: 'Cannot GET /api/nope', instance: '/api/nope', code: 'NOT_FOUND' });
    expect(problem.title).toBe(ERROR_CATALOG.NOT_FOUND.title);
  });

  it('answer framework errors with the code of their status', () => {
    const charset = Object.assign(new Error('unsupported charset "LATIN1"'), { status: 415, type: 'charset.unsupported' });
    expect(toProblem(charset, '/api/tasks')).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported request encoding', status: 415 });
    const malformed = Object.assign(new SyntaxError('Unexpected token }'), { status: 400, type: 'entity.parse.failed' });
    expect(toProblem(malformed, '/api/tasks')).toMatchObject({ code: 'VALIDATION_FAILED', title: 'Invalid request', status: 400, detail: 'request body is not valid JSON: Unexpected token }' });
    expect(toProblem(new Error('boom'), '/api/tasks')).toEqual({ type: 'urn:mobileclaw:error:INTERNAL_ERROR', title: 'Internal error', status: 500, detail: 'internal error', instance: '/api/tasks', code: 'INTERNAL_ERROR' });
    // A client-error status the catalog has no code for keeps a code of its own.
    expect(toProblem(new HttpException('I am a teapot', 418), '/tea')).toEqual({ type: 'urn:mobileclaw:error:HTTP_418', title: 'Error', status: 418, detail: 'I am a teapot', instance: '/tea', code: 'HTTP_418' });
  });
});
