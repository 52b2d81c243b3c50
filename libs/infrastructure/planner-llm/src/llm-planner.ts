import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { Logger } from '@nestjs/common';
import { CoordinateSpace, NoPlannerMetrics, Planner, type PlanDecision, type PlannerMetrics, type PlannerObservation, type PlanningContext } from '@mobileclaw/domain';
import {
  ChatCompletionClient,
  abortedError,
  type ChatCompletionClientDependencies,
  type ModelReply,
} from './chat-completion-client';
import { withLlmPlannerDefaults, type LlmPlannerOptions, type ResolvedLlmPlannerOptions } from './llm-planner.options';
import { PLANNER_SYSTEM_PROMPT, buildUserPrompt } from './planner-prompt';
import { PLANNER_TOOLS, callerToolFunctions, gatewayToolFunctions } from './planner-tools';
import { skillActivationMessages } from './skill-activations';
import { downscaleScreenshot, type ModelImage } from './screenshot-downscale';
import { ToolCallError, decodeToolCall, type ToolCallScope } from './tool-call-decoder';

/** Text sent back to the model after an answer without a tool call. */
const NO_TOOL_CALL_FEEDBACK = 'Your answer had no tool call. Answer with exactly one tool call (one of the provided tools).';

/** Text sent back for the tool calls after the first one in an answer; only the first is ever used. */
const EXTRA_CALL_FEEDBACK = 'Not run: only the first tool call of an answer is used.';

/**
 * Planner adapter for any OpenAI-compatible Chat Completions endpoint with tool calling (OpenAI, Qwen via
 * DashScope compatible mode, Zhipu GLM, DeepSeek, vLLM, Ollama), through the official `openai` package.
 *
 * Each step is one conversation: a system message with the rules, and a user message with the goal, the
 * step and budget, the history, the screen size and coordinate space, the indexed element list and — with
 * `vision` — a JPEG copy of the screenshot whose long side is at most `maxImageSide` px. The model answers
 * with one tool call (see {@link PLANNER_TOOLS}); coordinates it gives in the image map back to device px.
 * The task's caller tools (`ctx.tools`) are offered as functions too ({@link callerToolFunctions}); a call
 * of one is a `tool_call` decision, and its result (or rejection) shows in the history of later steps.
 * So are the gateway's tools (`ctx.gatewayTools`, {@link gatewayToolFunctions}: marked `[gateway tool]`,
 * with their kind and mode, "may fail: missing …" when ineligible, "unavailable now" when down); a
 * phone tool's or a caller tool's name wins a clash, the gateway tool is then not offered. A gateway
 * tool's result shows in the history (marked UNVERIFIED when its answer shows no sign the tool ran);
 * a skill's instructions follow the user message as the result of the skill's call
 * ({@link skillActivationMessages}), so the model follows them in the steps after.
 * A malformed answer (no tool call, unknown tool, bad JSON, invalid or missing argument, unknown element)
 * is sent back with the reason, as a `tool` message for that call id, up to `maxAttempts` answers per step;
 * each request for an answer is reported through `ctx.onProgress` as it starts. A response that is not a
 * Chat Completions answer (an HTML page, an error body, invalid JSON) is the endpoint's failure, never the
 * model's: it fails the step at once (after the SDK's retries when its status is retried).
 *
 * Each request is logged at debug level and each unusable answer at warn level — attempt numbers,
 * tool names and the kind of problem only, never the model's arguments or the prompt (they may carry
 * text to type, which may be a password). Retried HTTP requests and asked-again answers are reported
 * to {@link PlannerMetrics}.
 */
export class LlmPlanner extends Planner {
  /** `llm:<model>`. */
  readonly name: string;
  private readonly options: ResolvedLlmPlannerOptions;
  private readonly client: ChatCompletionClient;
  private readonly metrics: PlannerMetrics;
  private readonly logger = new Logger('LlmPlanner');

  /**
   * @param dependencies optional `fetch` for the SDK (default: the global one), where retries are reported.
   * @throws RangeError when an option is invalid (see {@link withLlmPlannerDefaults}).
   */
  constructor(options: LlmPlannerOptions, dependencies: ChatCompletionClientDependencies = {}) {
    super();
    this.options = withLlmPlannerDefaults(options);
    this.name = `llm:${this.options.model}`;
    this.metrics = dependencies.metrics ?? new NoPlannerMetrics();
    this.client = new ChatCompletionClient(this.options, dependencies);
  }

  /**
   * Asks the model for the next step.
   * @throws MobileClawError `ABORTED` when `ctx.signal` fires.
   * @throws Error when the API fails (endpoint and HTTP status named, after the SDK's retries), answers
   *   with something that is not a Chat Completions response, times out, or gives no valid tool call in
   *   `maxAttempts` answers (each answer's reason named).
   */
  async plan(ctx: PlanningContext): Promise<PlanDecision> {
    if (ctx.signal.aborted) throw abortedError(ctx.signal);
    const image = await this.modelImage(ctx.observation);
    if (ctx.signal.aborted) throw abortedError(ctx.signal);
    const screen = ctx.observation.screen;
    const space = image ? CoordinateSpace.ofImage(image, screen) : CoordinateSpace.ofScreen(screen);
    const gatewayFunctions = gatewayToolFunctions(ctx.gatewayTools, ctx.tools);
    const offered = new Set(gatewayFunctions.map((tool) => tool.function.name));
    const scope: ToolCallScope = {
      elements: ctx.observation.elements,
      space,
      ...(ctx.tools ? { callerTools: ctx.tools } : {}),
      ...(ctx.gatewayTools ? { gatewayTools: ctx.gatewayTools.filter((tool) => offered.has(tool.name)) } : {}),
    };
    const tools = [...PLANNER_TOOLS, ...callerToolFunctions(ctx.tools), ...gatewayFunctions];
    const text = buildUserPrompt(ctx, space, image !== undefined);
    const content: ChatCompletionContentPart[] | string = image
      ? [
          { type: 'text', text },
          { type: 'image_url', image_url: { url: image.dataUrl } },
        ]
      : text;
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: PLANNER_SYSTEM_PROMPT },
      { role: 'user', content },
      // Skills activated so far: their instructions as the results of their calls.
      ...skillActivationMessages(ctx.history),
    ];

    const problems: string[] = [];
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      ctx.onProgress?.({ attempt, maxAttempts: this.options.maxAttempts });
      if (attempt > 1) this.metrics.retried('invalid_answer');
      this.logger.debug(`step ${ctx.stepIndex}: asking ${this.name} (answer ${attempt} of ${this.options.maxAttempts})`);
      const reply = await this.client.complete(messages, tools, ctx.signal);
      const call = reply.toolCalls[0];
      if (!call) {
        this.logger.warn(`step ${ctx.stepIndex}: answer ${attempt} of ${this.name} had no tool call${reply.finishReason ? ` (finish_reason ${reply.finishReason})` : ''}`);
        problems.push(`answer ${attempt}: no tool call${reply.finishReason ? ` (finish_reason ${reply.finishReason})` : ''}`);
        if (reply.content?.trim()) messages.push({ role: 'assistant', content: reply.content });
        messages.push({ role: 'user', content: NO_TOOL_CALL_FEEDBACK });
        continue;
      }
      try {
        return decodeToolCall(call.name, call.arguments, scope, reply.content);
      } catch (err) {
        if (!(err instanceof ToolCallError)) throw err;
        this.logger.warn(`step ${ctx.stepIndex}: answer ${attempt} of ${this.name} called ${JSON.stringify(call.name.slice(0, 40))} with unusable arguments`);
        problems.push(`answer ${attempt}: ${call.name || '(no name)'}: ${err.message}`);
        messages.push(...this.feedback(reply, err));
      }
    }
    throw new Error(
      `${this.name} gave no valid tool call in ${this.options.maxAttempts} answer${this.options.maxAttempts === 1 ? '' : 's'} — ${problems.join('; ')}`,
    );
  }

  /** The model's answer echoed back, then a `tool` message per call: the error for the first, "not run" for the rest. */
  private feedback(reply: ModelReply, error: ToolCallError): ChatCompletionMessageParam[] {
    const assistant: ChatCompletionMessageParam = {
      role: 'assistant',
      content: reply.content,
      tool_calls: reply.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    };
    return [
      assistant,
      ...reply.toolCalls.map(
        (call, i): ChatCompletionMessageParam => ({
          role: 'tool',
          tool_call_id: call.id,
          content: i === 0 ? `Error: ${error.message}. Call one tool again with corrected arguments.` : EXTRA_CALL_FEEDBACK,
        }),
      ),
    ];
  }

  private async modelImage(observation: PlannerObservation): Promise<ModelImage | undefined> {
    if (!this.options.vision || !observation.screenshot) return undefined;
    return downscaleScreenshot(observation.screenshot, this.options.maxImageSide, this.options.jpegQuality);
  }
}
