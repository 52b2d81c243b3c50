/**
 * Configuration of the LLM planner: any OpenAI-compatible Chat Completions endpoint with tool calling
 * (OpenAI, Qwen/DashScope compatible mode, Zhipu GLM, DeepSeek, vLLM, Ollama).
 */
export interface LlmPlannerOptions {
  /** Base URL of the API, up to and including the version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Bearer token; omit for servers without authentication (vLLM, Ollama): no `Authorization` header is sent. */
  apiKey?: string;
  /** Model name, e.g. `gpt-4o`, `qwen-vl-max`, `glm-4v`, `deepseek-chat`. */
  model: string;
  /** Send a downscaled JPEG copy of the screenshot (the model must accept `image_url` parts). */
  vision: boolean;
  /** Ask for a streamed (SSE) answer. Default false. */
  stream?: boolean;
  /** Longest side of the image sent to the model, in px (never upscaled). Default 1280. */
  maxImageSide?: number;
  /** JPEG quality of that image, 1–100. Default 80. */
  jpegQuality?: number;
  /** Model answers per step (the first plus retries after a malformed tool call). Default 3. */
  maxAttempts?: number;
  /** Deadline of one HTTP request until the response headers arrive, in ms. Default 60 000. */
  timeoutMs?: number;
  /** SDK retries of one request after a 408/409/429/5xx answer or a connection error. Default 2. */
  maxRetries?: number;
  /** Sampling temperature; omitted from requests when unset (the server's default applies). */
  temperature?: number;
}

/** {@link LlmPlannerOptions} with every default applied. */
export type ResolvedLlmPlannerOptions = Required<Omit<LlmPlannerOptions, 'apiKey' | 'temperature'>> &
  Pick<LlmPlannerOptions, 'apiKey' | 'temperature'>;

export const LLM_PLANNER_DEFAULTS = {
  stream: false,
  maxImageSide: 1280,
  jpegQuality: 80,
  maxAttempts: 3,
  timeoutMs: 60_000,
  maxRetries: 2,
} as const;

/** Accepted range of `maxImageSide` (px). */
export const MAX_IMAGE_SIDE_RANGE = { min: 64, max: 8192 } as const;

/** Environment variables read by {@link resolveLlmPlannerOptions}. */
export const LLM_PLANNER_ENV = {
  baseUrl: 'MOBILECLAW_LLM_BASE_URL',
  apiKey: 'MOBILECLAW_LLM_API_KEY',
  model: 'MOBILECLAW_LLM_MODEL',
  vision: 'MOBILECLAW_LLM_VISION',
  stream: 'MOBILECLAW_LLM_STREAM',
  maxImageSide: 'MOBILECLAW_LLM_MAX_IMAGE_SIDE',
} as const;

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Applies the defaults and checks every value.
 * @throws RangeError naming the first invalid option.
 */
export function withLlmPlannerDefaults(options: LlmPlannerOptions): ResolvedLlmPlannerOptions {
  if (!isHttpUrl(options.baseUrl)) throw new RangeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  if (!options.model.trim()) throw new RangeError('model must not be empty');
  const resolved: ResolvedLlmPlannerOptions = {
    baseUrl: options.baseUrl,
    model: options.model,
    vision: options.vision,
    stream: options.stream ?? LLM_PLANNER_DEFAULTS.stream,
    maxImageSide: integerIn(
      'maxImageSide',
      options.maxImageSide ?? LLM_PLANNER_DEFAULTS.maxImageSide,
      MAX_IMAGE_SIDE_RANGE.min,
      MAX_IMAGE_SIDE_RANGE.max,
    ),
    jpegQuality: integerIn('jpegQuality', options.jpegQuality ?? LLM_PLANNER_DEFAULTS.jpegQuality, 1, 100),
    maxAttempts: integerIn('maxAttempts', options.maxAttempts ?? LLM_PLANNER_DEFAULTS.maxAttempts, 1, 20),
    timeoutMs: integerIn('timeoutMs', options.timeoutMs ?? LLM_PLANNER_DEFAULTS.timeoutMs, 1, 3_600_000),
    maxRetries: integerIn('maxRetries', options.maxRetries ?? LLM_PLANNER_DEFAULTS.maxRetries, 0, 10),
  };
  if (options.apiKey) resolved.apiKey = options.apiKey;
  if (options.temperature !== undefined) {
    if (!Number.isFinite(options.temperature) || options.temperature < 0 || options.temperature > 2) {
      throw new RangeError(`temperature must be a number from 0 to 2, got ${options.temperature}`);
    }
    resolved.temperature = options.temperature;
  }
  return resolved;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

function nonEmpty(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  return value ? value : undefined;
}

/**
 * Reads the LLM planner's configuration from the environment:
 * `MOBILECLAW_LLM_BASE_URL`, `MOBILECLAW_LLM_MODEL` (both required to enable it), `MOBILECLAW_LLM_API_KEY`,
 * `MOBILECLAW_LLM_VISION` (`true`/`false`, default false), `MOBILECLAW_LLM_STREAM` (`true`/`false`, default
 * false), `MOBILECLAW_LLM_MAX_IMAGE_SIDE` (px, default 1280). Empty values count as unset.
 * @returns the options, or `undefined` when neither the base URL nor the model is set (no LLM configured).
 * @throws Error naming the variable when one of the two is missing or a value is invalid.
 */
export function resolveLlmPlannerOptions(env: Record<string, string | undefined>): LlmPlannerOptions | undefined {
  const baseUrl = nonEmpty(env[LLM_PLANNER_ENV.baseUrl]);
  const model = nonEmpty(env[LLM_PLANNER_ENV.model]);
  if (baseUrl === undefined && model === undefined) return undefined;
  if (baseUrl === undefined) throw new Error(`${LLM_PLANNER_ENV.baseUrl} must be set when ${LLM_PLANNER_ENV.model} is`);
  if (model === undefined) throw new Error(`${LLM_PLANNER_ENV.model} must be set when ${LLM_PLANNER_ENV.baseUrl} is`);
  if (!isHttpUrl(baseUrl)) {
    throw new Error(`${LLM_PLANNER_ENV.baseUrl} must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  const options: LlmPlannerOptions = { baseUrl, model, vision: false };
  const apiKey = nonEmpty(env[LLM_PLANNER_ENV.apiKey]);
  if (apiKey !== undefined) options.apiKey = apiKey;
  const vision = nonEmpty(env[LLM_PLANNER_ENV.vision]);
  if (vision !== undefined) options.vision = parseBoolean(LLM_PLANNER_ENV.vision, vision);
  const stream = nonEmpty(env[LLM_PLANNER_ENV.stream]);
  if (stream !== undefined) options.stream = parseBoolean(LLM_PLANNER_ENV.stream, stream);
  const side = nonEmpty(env[LLM_PLANNER_ENV.maxImageSide]);
  if (side !== undefined) {
    const value = /^\d+$/.test(side) ? Number(side) : NaN;
    if (!Number.isInteger(value) || value < MAX_IMAGE_SIDE_RANGE.min || value > MAX_IMAGE_SIDE_RANGE.max) {
      throw new Error(
        `${LLM_PLANNER_ENV.maxImageSide} must be an integer from ${MAX_IMAGE_SIDE_RANGE.min} to ${MAX_IMAGE_SIDE_RANGE.max} (px), got ${JSON.stringify(side)}`,
      );
    }
    options.maxImageSide = value;
  }
  return options;
}
