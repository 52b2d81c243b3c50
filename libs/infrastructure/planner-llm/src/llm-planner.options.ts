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

/** True for an absolute `http:` or `https:` URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
