/** Public API of the LLM planner; the other modules of this folder are its internals. */
export {
  LLM_PLANNER_DEFAULTS,
  MAX_IMAGE_SIDE_RANGE,
  isHttpUrl,
  withLlmPlannerDefaults,
  type LlmPlannerOptions,
  type ResolvedLlmPlannerOptions,
} from './llm-planner.options';
export type { ChatCompletionClientDependencies } from './chat-completion-client';
export { LlmPlanner } from './llm-planner';
export {
  LlmMemorySummarizer,
  MAX_MEMORIES_PER_ANSWER,
  type LlmMemorySummarizerDependencies,
  type LlmMemorySummarizerOptions,
} from './llm-memory-summarizer';
