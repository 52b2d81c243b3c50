import { isHttpUrl, MAX_IMAGE_SIDE_RANGE, type LlmPlannerOptions } from '@mobileclaw/planner-llm';

/** Environment variables read by {@link resolveLlmPlannerOptions}. */
export const LLM_PLANNER_ENV = {
  baseUrl: 'MOBILECLAW_LLM_BASE_URL',
  apiKey: 'MOBILECLAW_LLM_API_KEY',
  model: 'MOBILECLAW_LLM_MODEL',
  vision: 'MOBILECLAW_LLM_VISION',
  stream: 'MOBILECLAW_LLM_STREAM',
  maxImageSide: 'MOBILECLAW_LLM_MAX_IMAGE_SIDE',
} as const;

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
