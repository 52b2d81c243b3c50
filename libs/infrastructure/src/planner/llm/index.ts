/** Public API of the LLM planner; the other modules of this folder are its internals. */
export {
  LLM_PLANNER_DEFAULTS,
  LLM_PLANNER_ENV,
  MAX_IMAGE_SIDE_RANGE,
  resolveLlmPlannerOptions,
  withLlmPlannerDefaults,
  type LlmPlannerOptions,
  type ResolvedLlmPlannerOptions,
} from './llm-planner.options';
export type { ChatCompletionClientDependencies } from './chat-completion-client';
export { LlmPlanner } from './llm-planner';
