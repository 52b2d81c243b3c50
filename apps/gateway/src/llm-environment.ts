import { isHttpUrl, MAX_IMAGE_SIDE_RANGE, type LlmPlannerOptions } from '@mobileclaw/planner-llm';

/** Environment variables read by {@link resolveLlmPlannerOptions}. */
export const LLM_PLANNER_ENV = {
  baseUrl: 'MOBILECLAW_LLM_BASE_URL',
  apiKey: 'MOBILECLAW_LLM_API_KEY',
  model: 'MOBILECLAW_LLM_MODEL',
  vision: 'MOBILECLAW_LLM_VISION',
  stream: 'MOBILECLAW_LLM_STREAM',
  maxImageSide: 'MOBILECLAW_LLM_MAX_IMAGE_SIDE',
  timeoutMs: 'MOBILECLAW_LLM_TIMEOUT_MS',
  maxRetries: 'MOBILECLAW_LLM_MAX_RETRIES',
} as const;

/**
 * Accepted range of `MOBILECLAW_LLM_TIMEOUT_MS` (ms): at least a second, so that a slow but working model
 * is not cut off; at most ten minutes, so that a hung one cannot hold a phone for an hour.
 */
export const LLM_TIMEOUT_MS_RANGE = { min: 1_000, max: 600_000 } as const;

/** Accepted range of `MOBILECLAW_LLM_MAX_RETRIES` (retries after the first try). */
export const LLM_MAX_RETRIES_RANGE = { min: 0, max: 10 } as const;

/**
 * A variable holding a whole number in `range`.
 * @throws Error naming the variable, the range (with `unit`) and the value.
 */
function parseInteger(name: string, raw: string, range: { min: number; max: number }, unit?: string): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new Error(`${name} must be an integer from ${range.min} to ${range.max}${unit ? ` (${unit})` : ''}, got ${JSON.stringify(raw)}`);
  }
  return value;
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
 * false), `MOBILECLAW_LLM_MAX_IMAGE_SIDE` (px, default 1280), `MOBILECLAW_LLM_TIMEOUT_MS` (deadline of one HTTP
 * request until its response headers, ms, 1 000–600 000, default 60 000), `MOBILECLAW_LLM_MAX_RETRIES` (SDK
 * retries of one request, 0–10, default 2). Empty values count as unset; unset ones are left out, so the
 * planner's defaults apply.
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
  if (side !== undefined) options.maxImageSide = parseInteger(LLM_PLANNER_ENV.maxImageSide, side, MAX_IMAGE_SIDE_RANGE, 'px');
  const timeout = nonEmpty(env[LLM_PLANNER_ENV.timeoutMs]);
  if (timeout !== undefined) options.timeoutMs = parseInteger(LLM_PLANNER_ENV.timeoutMs, timeout, LLM_TIMEOUT_MS_RANGE, 'ms');
  const retries = nonEmpty(env[LLM_PLANNER_ENV.maxRetries]);
  if (retries !== undefined) options.maxRetries = parseInteger(LLM_PLANNER_ENV.maxRetries, retries, LLM_MAX_RETRIES_RANGE);
  return options;
}
