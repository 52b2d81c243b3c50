import { LLM_PLANNER_DEFAULTS, withLlmPlannerDefaults } from './llm-planner.options';

describe('withLlmPlannerDefaults', () => {
  it('applies the documented defaults', () => {
    expect(withLlmPlannerDefaults({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm', vision: true })).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'm',
      vision: true,
      stream: false,
      maxImageSide: 1280,
      jpegQuality: 80,
      maxAttempts: 3,
      timeoutMs: 60_000,
      maxRetries: 2,
    });
    expect(LLM_PLANNER_DEFAULTS.maxImageSide).toBe(1280);
  });

  it('rejects invalid values by name', () => {
    const ok = { baseUrl: 'http://127.0.0.1:8000/v1', model: 'm', vision: false };
    expect(() => withLlmPlannerDefaults({ ...ok, maxAttempts: 0 })).toThrow('maxAttempts must be an integer from 1 to 20, got 0');
    expect(() => withLlmPlannerDefaults({ ...ok, jpegQuality: 101 })).toThrow('jpegQuality must be an integer from 1 to 100, got 101');
    expect(() => withLlmPlannerDefaults({ ...ok, temperature: 3 })).toThrow('temperature must be a number from 0 to 2, got 3');
    expect(() => withLlmPlannerDefaults({ ...ok, model: ' ' })).toThrow('model must not be empty');
    expect(() => withLlmPlannerDefaults({ ...ok, baseUrl: 'ftp://x' })).toThrow('baseUrl must be an http(s) URL');
  });
});
