import { resolveLlmPlannerOptions } from './llm-environment';

describe('resolveLlmPlannerOptions', () => {
  const base = { MOBILECLAW_LLM_BASE_URL: 'https://dashscope.aliyuncs.com/compatible-mode/v1', MOBILECLAW_LLM_MODEL: 'qwen-vl-max' };

  it('returns undefined when neither the base URL nor the model is set', () => {
    expect(resolveLlmPlannerOptions({})).toBeUndefined();
    expect(resolveLlmPlannerOptions({ MOBILECLAW_LLM_BASE_URL: ' ', MOBILECLAW_LLM_MODEL: '' })).toBeUndefined();
  });

  it('reads every variable', () => {
    expect(
      resolveLlmPlannerOptions({
        ...base,
        MOBILECLAW_LLM_API_KEY: 'sk-test',
        MOBILECLAW_LLM_VISION: 'true',
        MOBILECLAW_LLM_STREAM: 'TRUE',
        MOBILECLAW_LLM_MAX_IMAGE_SIDE: '1024',
        MOBILECLAW_LLM_TIMEOUT_MS: '15000',
        MOBILECLAW_LLM_MAX_RETRIES: '0',
      }),
    ).toEqual({
      baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-vl-max',
      apiKey: 'sk-test',
      vision: true,
      stream: true,
      maxImageSide: 1024,
      timeoutMs: 15_000,
      maxRetries: 0,
    });
  });

  it('defaults to vision off and leaves other defaults to the planner', () => {
    expect(resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_VISION: 'false' })).toEqual({
      baseUrl: base.MOBILECLAW_LLM_BASE_URL,
      model: 'qwen-vl-max',
      vision: false,
    });
    expect(resolveLlmPlannerOptions(base)).toEqual({ baseUrl: base.MOBILECLAW_LLM_BASE_URL, model: 'qwen-vl-max', vision: false });
  });

  it('names the missing half of the configuration', () => {
    expect(() => resolveLlmPlannerOptions({ MOBILECLAW_LLM_MODEL: 'glm-4v' })).toThrow(
      'MOBILECLAW_LLM_BASE_URL must be set when MOBILECLAW_LLM_MODEL is',
    );
    expect(() => resolveLlmPlannerOptions({ MOBILECLAW_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
      'MOBILECLAW_LLM_MODEL must be set when MOBILECLAW_LLM_BASE_URL is',
    );
  });

  it('names the variable holding an invalid value', () => {
    expect(() => resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_BASE_URL: 'localhost:8000' })).toThrow(
      'MOBILECLAW_LLM_BASE_URL must be an http(s) URL, got "localhost:8000"',
    );
    expect(() => resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_VISION: 'yes' })).toThrow(
      'MOBILECLAW_LLM_VISION must be true or false, got "yes"',
    );
    expect(() => resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_STREAM: 'on' })).toThrow(
      'MOBILECLAW_LLM_STREAM must be true or false, got "on"',
    );
    for (const side of ['12.5', '-1', '63', '8193', '1280px']) {
      expect(() => resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_MAX_IMAGE_SIDE: side })).toThrow(
        `MOBILECLAW_LLM_MAX_IMAGE_SIDE must be an integer from 64 to 8192 (px), got ${JSON.stringify(side)}`,
      );
    }
    for (const timeout of ['999', '600001', '1e4', '60s', '-1000']) {
      expect(() => resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_TIMEOUT_MS: timeout })).toThrow(
        `MOBILECLAW_LLM_TIMEOUT_MS must be an integer from 1000 to 600000 (ms), got ${JSON.stringify(timeout)}`,
      );
    }
    for (const retries of ['11', '-1', '1.5', 'two']) {
      expect(() => resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_MAX_RETRIES: retries })).toThrow(
        `MOBILECLAW_LLM_MAX_RETRIES must be an integer from 0 to 10, got ${JSON.stringify(retries)}`,
      );
    }
    expect(resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_TIMEOUT_MS: '1000', MOBILECLAW_LLM_MAX_RETRIES: '10' })).toMatchObject({ timeoutMs: 1000, maxRetries: 10 });
    expect(resolveLlmPlannerOptions({ ...base, MOBILECLAW_LLM_TIMEOUT_MS: '600000' })).toMatchObject({ timeoutMs: 600_000 });
  });
});

