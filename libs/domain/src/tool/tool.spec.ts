import { MobileClawError } from '../errors';
import { emptyToolInputSchema, toolEligibility, toolSourceKey } from './tool';
import { toolFailure, toolFailureFromError, toolSuccess } from './tool-invocation';

describe('tool model', () => {
  it('writes a source as kind:id', () => {
    expect(toolSourceKey({ kind: 'skills', id: 'workspace' })).toBe('skills:workspace');
    expect(toolSourceKey({ kind: 'mcp', id: 'erp' })).toBe('mcp:erp');
  });

  it('calls a tool eligible exactly when it lacks nothing, copying what it lacks', () => {
    expect(toolEligibility()).toEqual({ eligible: true, missing: [] });
    const missing = ['env:API_KEY', 'bin:ffmpeg'];
    const eligibility = toolEligibility(missing);
    expect(eligibility).toEqual({ eligible: false, missing: ['env:API_KEY', 'bin:ffmpeg'] });
    missing.push('bin:jq');
    expect(eligibility.missing).toEqual(['env:API_KEY', 'bin:ffmpeg']);
  });

  it('gives argument-less tools an empty object schema, a fresh one each time', () => {
    const schema = emptyToolInputSchema();
    expect(schema).toEqual({ type: 'object', properties: {} });
    expect(emptyToolInputSchema()).not.toBe(schema);
  });
});

describe('tool invocation results', () => {
  it('shows a string result as itself and anything else as JSON', () => {
    expect(toolSuccess('42 °C')).toEqual({ ok: true, content: '42 °C', text: '42 °C' });
    expect(toolSuccess({ temp: 42, unit: 'C' })).toEqual({ ok: true, content: { temp: 42, unit: 'C' }, text: '{"temp":42,"unit":"C"}' });
    expect(toolSuccess({ body: '# Steps' }, '# Steps')).toEqual({ ok: true, content: { body: '# Steps' }, text: '# Steps' });
  });

  it('takes a failure’s retryability from the catalog', () => {
    expect(toolFailure('TOOL_NOT_FOUND', 'no tool x')).toEqual({ ok: false, error: { code: 'TOOL_NOT_FOUND', message: 'no tool x', retryable: false } });
    expect(toolFailure('TOOL_UNAVAILABLE', 'server down')).toEqual({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'server down', retryable: true } });
  });

  it('keeps a MobileClawError’s code and calls anything else a bug', () => {
    expect(toolFailureFromError(new MobileClawError('TIMEOUT', 'too slow'))).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'too slow', retryable: true } });
    expect(toolFailureFromError(new TypeError('x is undefined'))).toEqual({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'x is undefined', retryable: false } });
    expect(toolFailureFromError('odd')).toEqual({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'odd', retryable: false } });
  });
});
