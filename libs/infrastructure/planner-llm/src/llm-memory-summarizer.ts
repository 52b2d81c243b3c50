import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { Logger } from '@nestjs/common';
import { z } from 'zod';
import {
  FLUSH_PRIORITY_MAX,
  MEMORY_CATEGORY_PATTERN,
  MEMORY_PRIORITY_MAX,
  MEMORY_PRIORITY_MIN,
  MEMORY_TEXT_MAX_CHARS,
  MemorySummarizer,
  MobileClawError,
  ORGANIZE_PRIORITY_MIN,
  normaliseMemoryText,
  settleOrAbort,
  type MemoryCandidate,
  type SessionTurn,
} from '@mobileclaw/domain';
import { abortedError, endpointOf, type ChatCompletionClientDependencies } from './chat-completion-client';
import { withLlmPlannerDefaults, type LlmPlannerOptions, type ResolvedLlmPlannerOptions } from './llm-planner.options';
import { ORGANIZE_SYSTEM_PROMPT, SUMMARIZE_SYSTEM_PROMPT, daysMessage, sessionMessage } from './llm-memory-summarizer.prompt';

/**
 * Options of {@link LlmMemorySummarizer}: the planner's endpoint settings (the gateway passes its
 * planner's options), without the vision and streaming ones.
 */
export type LlmMemorySummarizerOptions = Pick<LlmPlannerOptions, 'baseUrl' | 'apiKey' | 'model' | 'maxAttempts' | 'timeoutMs' | 'maxRetries' | 'temperature'>;

/** Collaborators of the summarizer that are not configuration. */
export type LlmMemorySummarizerDependencies = Pick<ChatCompletionClientDependencies, 'fetch'>;

/** The most memories taken from one answer; the rest are left out (a flush keeps facts, not a transcript). */
export const MAX_MEMORIES_PER_ANSWER = 50;
/** The category of a memory whose answer gave none, or one that is not a category name. */
const DEFAULT_CATEGORY = 'fact';
/** The priority of a flushed memory whose answer gave none. */
const DEFAULT_FLUSH_PRIORITY = 5;
/** The SDK's constructor insists on a key; without one it is never sent (the header is removed). */
const UNUSED_API_KEY = 'unused';

/** The answer the prompts ask for. Extra fields are ignored; each memory is checked on its own after this. */
const ANSWER = z.object({
  memories: z.array(
    z.object({
      text: z.string(),
      category: z.string().nullish(),
      priority: z.union([z.number(), z.string()]).nullish(),
    }),
  ),
});
type AnswerMemory = z.infer<typeof ANSWER>['memories'][number];

/** Why an answer could not be used (sent back to the model, and named in the final error). */
class UnusableAnswer extends Error {}

/**
 * The model side of memory over any OpenAI-compatible Chat Completions endpoint (the planner's), through
 * the official `openai` package. Each call is one conversation: a system prompt with the rules
 * (`llm-memory-summarizer.prompt.ts`) and a user message with the session's turns or the days' notes;
 * the answer must be the JSON object `{"memories": [{text, category, priority}]}` (asked for with
 * `response_format: json_object`; an endpoint that refuses that parameter is asked without it from then
 * on). An answer that is not such an object is sent back with the reason, up to `maxAttempts` answers.
 * Memories are then checked one by one: blank texts dropped, texts cut to 4,000 characters, categories
 * that are not category names become `fact`, the same text kept once, at most
 * {@link MAX_MEMORIES_PER_ANSWER}. `summarize` clamps priorities to 1–7 (default 5); `organize` keeps
 * only memories of priority 9 or 10 (a higher one counts as 10) and drops the rest.
 *
 * Requests are logged at debug level and unusable answers at warn level — never the turns, the notes or
 * the model's text.
 */
export class LlmMemorySummarizer extends MemorySummarizer {
  /** `llm:<model>`. */
  override readonly name: string;
  private readonly options: ResolvedLlmPlannerOptions;
  private readonly client: OpenAI;
  private jsonMode = true;
  private readonly logger = new Logger('LlmMemorySummarizer');

  /** @throws RangeError when an option is invalid (see `withLlmPlannerDefaults`). */
  constructor(options: LlmMemorySummarizerOptions, dependencies: LlmMemorySummarizerDependencies = {}) {
    super();
    this.options = withLlmPlannerDefaults({ ...options, vision: false, stream: false });
    this.name = `llm:${this.options.model}`;
    this.client = new OpenAI({
      baseURL: this.options.baseUrl,
      apiKey: this.options.apiKey ?? UNUSED_API_KEY,
      // Explicit nulls keep the SDK from reading OPENAI_* variables meant for another tool.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: this.options.maxRetries,
      timeout: this.options.timeoutMs,
      ...(this.options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
    });
  }

  /**
   * The memories worth keeping from a session's turns, priorities 1–7; `[]` for no turns, without a request.
   * @throws MobileClawError `ABORTED` when `signal` fires; `TIMEOUT` when the endpoint does not answer in
   *   time; `PLANNER_ERROR` when it fails or gives no usable answer in `maxAttempts`.
   */
  override async summarize(turns: readonly SessionTurn[], signal?: AbortSignal): Promise<MemoryCandidate[]> {
    if (turns.length === 0) return [];
    const memories = await this.ask('summarize', SUMMARIZE_SYSTEM_PROMPT, sessionMessage(turns), signal);
    return candidates(memories, (priority) => clamp(priority ?? DEFAULT_FLUSH_PRIORITY, MEMORY_PRIORITY_MIN, FLUSH_PRIORITY_MAX));
  }

  /**
   * The lasting memories of recent daily notes, priority 9–10 each; `[]` when every day is blank, without a request.
   * @throws MobileClawError `ABORTED`, `TIMEOUT`, `PLANNER_ERROR` as {@link summarize}.
   */
  override async organize(days: readonly { day: string; text: string }[], signal?: AbortSignal): Promise<MemoryCandidate[]> {
    const written = days.filter((day) => day.text.trim());
    if (written.length === 0) return [];
    const memories = await this.ask('organize', ORGANIZE_SYSTEM_PROMPT, daysMessage(written), signal);
    return candidates(memories, (priority) =>
      priority !== undefined && priority >= ORGANIZE_PRIORITY_MIN ? Math.min(priority, MEMORY_PRIORITY_MAX) : undefined,
    );
  }

  /** Asks until an answer is the JSON object of memories, at most `maxAttempts` times. */
  private async ask(purpose: string, system: string, user: string, signal: AbortSignal | undefined): Promise<AnswerMemory[]> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    const problems: string[] = [];
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      this.logger.debug(`${purpose}: asking ${this.name} (answer ${attempt} of ${this.options.maxAttempts})`);
      const content = await this.complete(messages, signal);
      try {
        return parseAnswer(content);
      } catch (err) {
        if (!(err instanceof UnusableAnswer)) throw err;
        this.logger.warn(`${purpose}: answer ${attempt} of ${this.name} was unusable (${err.message.slice(0, 80)})`);
        problems.push(`answer ${attempt}: ${err.message}`);
        if (content?.trim()) messages.push({ role: 'assistant', content });
        messages.push({
          role: 'user',
          content: `That answer was not usable: ${err.message}. Answer again with only the JSON object {"memories": [{"text": "…", "category": "…", "priority": …}]}.`,
        });
      }
    }
    const answers = this.options.maxAttempts === 1 ? 'answer' : 'answers';
    throw new MobileClawError('PLANNER_ERROR', `${this.name} gave no usable memory answer in ${this.options.maxAttempts} ${answers} — ${problems.join('; ')}`);
  }

  /** One request; the first choice's content (null when it has none). */
  private async complete(messages: ChatCompletionMessageParam[], signal: AbortSignal | undefined): Promise<string | null> {
    if (signal?.aborted) throw abortedError(signal);
    const body: ChatCompletionCreateParamsNonStreaming = { model: this.options.model, messages };
    if (this.options.temperature !== undefined) body.temperature = this.options.temperature;
    const request = async (): Promise<string | null> => {
      const completion = await this.client.chat.completions.create(this.jsonMode ? { ...body, response_format: { type: 'json_object' } } : body, signal ? { signal } : {});
      if (!Array.isArray(completion?.choices)) throw new MobileClawError('PLANNER_ERROR', `LLM API at ${this.where} answered something that is not a Chat Completions response`);
      return completion.choices[0]?.message?.content ?? null;
    };
    try {
      const work = request().catch((err: unknown) => {
        if (!this.jsonMode || !refusesJsonMode(err)) throw err;
        // An endpoint without JSON mode: the prompt alone asks for JSON, from now on.
        this.jsonMode = false;
        this.logger.debug(`${this.name} refused response_format json_object: asking without it`);
        return request();
      });
      return await (signal ? settleOrAbort(work, signal, abortedError) : work);
    } catch (err) {
      throw this.translate(err, signal);
    }
  }

  /** `<endpoint> (model <model>)`, as error messages name the API (never with its key). */
  private get where(): string {
    return `${endpointOf(this.options.baseUrl)} (model ${this.options.model})`;
  }

  private translate(err: unknown, signal: AbortSignal | undefined): MobileClawError {
    if (err instanceof MobileClawError) return err;
    if (signal?.aborted || err instanceof APIUserAbortError) return signal ? abortedError(signal) : new MobileClawError('ABORTED', 'the memory request was aborted');
    const tries = this.options.maxRetries === 0 ? '1 try' : `${this.options.maxRetries + 1} tries`;
    if (err instanceof APIConnectionTimeoutError) {
      return new MobileClawError('TIMEOUT', `LLM request to ${this.where} timed out after ${this.options.timeoutMs} ms (${tries})`, { cause: err });
    }
    let message: string;
    if (err instanceof APIConnectionError) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      message = `cannot reach the LLM API at ${this.where} after ${tries}: ${err.message}${cause}`;
    } else if (err instanceof APIError && err.status !== undefined) {
      message = `LLM API at ${this.where} answered HTTP ${err.status}: ${err.message}`;
    } else {
      message = `LLM request to ${this.where} failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const key = this.options.apiKey;
    return new MobileClawError('PLANNER_ERROR', key ? message.split(key).join('[API key]') : message, { cause: err });
  }
}

/** True for an HTTP 400/422 answer that names `response_format` or JSON mode: the endpoint does not offer it. */
function refusesJsonMode(err: unknown): boolean {
  return err instanceof APIError && (err.status === 400 || err.status === 422) && /response_format|json_object|json mode/i.test(err.message);
}

/**
 * The memories of an answer: its content as JSON (inside a ```json fence or surrounding text too; a
 * bare list counts as the memories), checked against {@link ANSWER}.
 * @throws UnusableAnswer naming what is wrong.
 */
function parseAnswer(content: string | null): AnswerMemory[] {
  const text = content?.trim();
  if (!text) throw new UnusableAnswer('it was empty');
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  let parsed: unknown;
  try {
    parsed = start >= 0 && end > start ? JSON.parse(text.slice(start, end + 1)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) throw new UnusableAnswer('it was not JSON');
  const checked = ANSWER.safeParse(Array.isArray(parsed) ? { memories: parsed } : parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue.path.length > 0 ? issue.path.join('.') : 'the answer';
    throw new UnusableAnswer(`${path}: ${issue.message}`);
  }
  return checked.data.memories;
}

/** The answer's memories as candidates; `priorityOf` maps the model's (rounded) priority, undefined drops the memory. */
function candidates(memories: readonly AnswerMemory[], priorityOf: (priority: number | undefined) => number | undefined): MemoryCandidate[] {
  const seen = new Set<string>();
  const kept: MemoryCandidate[] = [];
  for (const memory of memories) {
    const text = capped(memory.text.trim());
    const key = normaliseMemoryText(text);
    if (!key || seen.has(key)) continue;
    const given = memory.priority === null || memory.priority === undefined ? undefined : Number(memory.priority);
    const priority = priorityOf(given !== undefined && Number.isFinite(given) ? Math.round(given) : undefined);
    if (priority === undefined) continue;
    seen.add(key);
    kept.push({ text, category: categoryOf(memory.category), priority });
    if (kept.length === MAX_MEMORIES_PER_ANSWER) break;
  }
  return kept;
}

/** A category name (lower case, `_` for spaces and dashes), or `fact` when the model's is none. */
function categoryOf(category: string | null | undefined): string {
  const name = (category ?? '').trim().toLowerCase().replace(/[\s-]+/g, '_');
  return MEMORY_CATEGORY_PATTERN.test(name) ? name : DEFAULT_CATEGORY;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function capped(text: string): string {
  if (text.length <= MEMORY_TEXT_MAX_CHARS) return text;
  const cut = text.slice(0, MEMORY_TEXT_MAX_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
