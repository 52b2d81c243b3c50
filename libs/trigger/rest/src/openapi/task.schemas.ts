import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  AGENT_ACTION_NAMES,
  CALLER_TOOL_KINDS,
  ERROR_CODES,
  MAX_TOOL_DESCRIPTION_LENGTH,
  MAX_TOOL_SCHEMA_BYTES,
  TASK_EVENT_TYPES,
  TASK_STATUSES,
  TOOL_EXECUTION_MODES,
  TOOL_KINDS,
  type CallerToolKind,
  type ToolExecutionMode,
  type ToolKind,
  type TaskEventType,
  type TaskStatus,
} from '@mobileclaw/domain';
import { ScreenInfoSchema } from './device.schemas';

/**
 * OpenAPI schemas of the task answers. They mirror the domain interfaces (`Task`, `TaskStep`,
 * `TaskPage` in @mobileclaw/domain, `TaskAccepted` of the controller) for documentation only.
 * Times are ISO-8601 strings, durations ms, coordinates device px.
 */

@ApiSchema({ name: 'AgentAction', description: 'An action on the phone: a command and its arguments, e.g. `{"command":"click","x":964,"y":326}`.' })
export class AgentActionSchema {
  @ApiProperty({ enum: [...AGENT_ACTION_NAMES] })
  command!: string;
}

@ApiSchema({ name: 'TaskError' })
export class TaskErrorSchema {
  @ApiProperty({
    description: 'A command error code or one of PLANNER_ERROR, GOAL_FAILED, NO_EFFECT, MAX_STEPS, APPROVAL_DENIED, CANCELED, INTERRUPTED, INTERNAL_ERROR.',
    enum: [...ERROR_CODES],
    example: 'MAX_STEPS',
  })
  code!: string;

  @ApiProperty()
  message!: string;
}

@ApiSchema({ name: 'PendingAction', description: 'The action waiting for a human\'s approval.' })
export class PendingActionSchema {
  @ApiProperty({ type: 'integer', minimum: 0 })
  stepIndex!: number;

  @ApiProperty({ type: () => AgentActionSchema })
  action!: AgentActionSchema;

  @ApiProperty({ example: 'sends a message to someone who is not a contact' })
  reason!: string;
}

@ApiSchema({ name: 'CallerToolSpec', description: 'One of your tools the planner may call; the gateway never runs it, you do.' })
export class CallerToolSpecSchema {
  @ApiProperty({ pattern: '^[A-Za-z0-9_-]{1,64}$', example: 'lookup_order' })
  name!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_TOOL_DESCRIPTION_LENGTH, description: 'What it does, for the planner.', example: 'Finds an order by its id.' })
  description!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: `JSON Schema of the arguments: \`"type": "object"\`, at most ${MAX_TOOL_SCHEMA_BYTES} bytes as JSON.`,
    example: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  })
  inputSchema!: Record<string, unknown>;

  @ApiProperty({ enum: [...CALLER_TOOL_KINDS], description: '`OBSERVATION` reads, `ACTION` changes something.' })
  kind!: CallerToolKind;
}

@ApiSchema({ name: 'CallerTool', description: 'A tool the task\'s caller offers, as a task shows it (its argument schema left out).' })
export class CallerToolSchema {
  @ApiProperty({ example: 'lookup_order' })
  name!: string;

  @ApiProperty({ enum: [...CALLER_TOOL_KINDS] })
  kind!: CallerToolKind;

  @ApiProperty({ example: 'Finds an order by its id.' })
  description!: string;
}

@ApiSchema({ name: 'PendingToolCall', description: 'The call of one of the caller\'s tools the task waits on; answer it with `POST /api/tasks/{taskId}/tool-results`.' })
export class PendingToolCallSchema {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The step that called the tool.' })
  stepIndex!: number;

  @ApiProperty({ description: '`<taskId>:<stepIndex>`: the same call keeps its id after a restart or a redelivery.', example: '3fe78d53-…:0' })
  toolCallId!: string;

  @ApiProperty({ example: 'lookup_order' })
  name!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The planner\'s arguments.', example: { orderId: 'A-17' } })
  arguments!: Record<string, unknown>;

  @ApiPropertyOptional({ enum: [...CALLER_TOOL_KINDS], description: 'The spec\'s kind, when the name is one of the task\'s tools.' })
  kind?: CallerToolKind;
}

@ApiSchema({
  name: 'PendingToolApproval',
  description: 'The call of one of the gateway\'s tools (an `ACTION` tool) waiting for a person\'s approval; answer with `POST /api/tasks/{taskId}/approval` (denied, the step ends `denied` and the task goes on).',
})
export class PendingToolApprovalSchema {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The step that calls the tool.' })
  stepIndex!: number;

  @ApiProperty({ description: '`<taskId>:<stepIndex>`: the call runs at most once.', example: '3fe78d53-…:0' })
  toolCallId!: string;

  @ApiProperty({ example: 'refund_order' })
  name!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The planner\'s arguments.', example: { orderId: 'A-17' } })
  arguments!: Record<string, unknown>;

  @ApiProperty({ enum: [...TOOL_KINDS] })
  kind!: ToolKind;

  @ApiProperty({ enum: [...TOOL_EXECUTION_MODES] })
  mode!: ToolExecutionMode;

  @ApiProperty({ description: 'The tool\'s source, `kind:id`.', example: 'catalog:erp' })
  source!: string;

  @ApiProperty({ example: 'ACTION tool refund_order (catalog:erp) runs only once a person approves it' })
  reason!: string;
}

@ApiSchema({ name: 'GatewayToolCallRef', description: 'Which of the gateway\'s tools a `tool_call` step called.' })
export class GatewayToolCallRefSchema {
  @ApiProperty({ description: 'Its source, `kind:id`.', example: 'catalog:erp' })
  source!: string;

  @ApiProperty({ enum: [...TOOL_KINDS] })
  kind!: ToolKind;

  @ApiProperty({ enum: [...TOOL_EXECUTION_MODES] })
  mode!: ToolExecutionMode;
}

@ApiSchema({ name: 'Task', description: 'A goal run on one phone.' })
export class TaskSchema {
  @ApiProperty({ format: 'uuid' })
  taskId!: string;

  @ApiProperty({ example: 'sim-1' })
  deviceId!: string;

  @ApiProperty({ example: 'Turn on Wi-Fi' })
  goal!: string;

  @ApiPropertyOptional({ description: 'The caller\'s conversation id (A2A `contextId`), when given at creation.', example: 'order-4711' })
  contextId?: string;

  @ApiProperty({ enum: [...TASK_STATUSES] })
  status!: TaskStatus;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 200, description: 'Step budget; the task fails with MAX_STEPS when it runs out.' })
  maxSteps!: number;

  @ApiProperty({ description: 'The planner that runs it.', example: 'rule-based' })
  planner!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  startedAt?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  endedAt?: string;

  @ApiPropertyOptional({ description: 'The planner\'s summary, when `completed`.' })
  summary?: string;

  @ApiPropertyOptional({ type: () => TaskErrorSchema, description: 'Why it failed, was canceled or interrupted.' })
  error?: TaskErrorSchema;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based place in the phone\'s task queue, while `queued`.' })
  queuePosition?: number;

  @ApiPropertyOptional({ type: () => PendingActionSchema, description: 'While `input_required` for a human\'s approval.' })
  pendingAction?: PendingActionSchema;

  @ApiPropertyOptional({ type: () => PendingToolCallSchema, description: 'While `input_required` for the caller\'s answer to a tool call.' })
  pendingToolCall?: PendingToolCallSchema;

  @ApiPropertyOptional({ type: () => PendingToolApprovalSchema, description: 'While `input_required` for a person\'s approval of a call of one of the gateway\'s tools.' })
  pendingToolApproval?: PendingToolApprovalSchema;

  @ApiPropertyOptional({ type: () => [CallerToolSchema], description: 'The caller\'s tools the planner may call, when the task was created with `tools` (even `[]`).' })
  tools?: CallerToolSchema[];

  @ApiProperty({ type: 'integer', minimum: 0 })
  stepCount!: number;
}

@ApiSchema({ name: 'StepObservation', description: 'What the loop saw before planning a step.' })
export class StepObservationSchema {
  @ApiPropertyOptional({ description: 'The frame the action was planned on.' })
  frameId?: string;

  @ApiPropertyOptional({ description: 'URL of the full-resolution screenshot.', example: '/api/tasks/3fe78d53-…/steps/0/screenshot' })
  screenshotUrl?: string;

  @ApiPropertyOptional({ example: 'image/png' })
  screenshotMime?: string;

  @ApiProperty({ type: () => ScreenInfoSchema })
  screen!: ScreenInfoSchema;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Entries in the compact element list the planner got.' })
  elementCount!: number;

  @ApiPropertyOptional({ description: 'Package of the foreground app.', example: 'com.android.settings' })
  package?: string;

  @ApiPropertyOptional({
    description:
      'True when the UI had settled (two consecutive equal UI trees) before the screenshot; false when the settle wait ' +
      '(`MOBILECLAW_SETTLE_TIMEOUT_MS`) ran out while the screen was still changing and it was observed anyway; absent when settling is off.',
  })
  settled?: boolean;
}

@ApiSchema({
  name: 'ActionTarget',
  description: 'What identifies the element an action targeted (or, as `evidence`, the last target on the final screen), as the screen showed it; recorded by the task loop. Never a password field\'s text.',
})
export class ActionTargetSchema {
  @ApiProperty({ description: 'Short class name.', example: 'Switch' })
  type!: string;

  @ApiPropertyOptional()
  text?: string;

  @ApiPropertyOptional({ description: 'Content description.' })
  desc?: string;

  @ApiPropertyOptional({ description: 'The best human label on screen.' })
  label?: string;

  @ApiPropertyOptional()
  resourceId?: string;

  @ApiPropertyOptional({ description: 'The foreground package.' })
  package?: string;

  @ApiProperty({ type: [Number], description: '`[left, top, right, bottom]`, device px.' })
  bounds!: number[];

  @ApiPropertyOptional()
  editable?: boolean;

  @ApiPropertyOptional()
  checkable?: boolean;

  @ApiPropertyOptional()
  checked?: boolean;

  @ApiPropertyOptional()
  password?: boolean;
}

@ApiSchema({ name: 'PlanDecision', description: 'What the planner decided: an action (with `action`), `done` (with `summary`), `fail` (with `reason`) or a `tool_call` of one of the caller\'s tools or the gateway\'s (with `name`, `arguments`, `toolCallId`, and `gatewayTool` for the gateway\'s).' })
export class PlanDecisionSchema {
  @ApiProperty({ enum: ['action', 'done', 'fail', 'tool_call'] })
  type!: 'action' | 'done' | 'fail' | 'tool_call';

  @ApiProperty({ description: 'The planner\'s reasoning.' })
  reasoning!: string;

  @ApiPropertyOptional({ type: () => AgentActionSchema, description: 'When `type` is `action`.' })
  action?: AgentActionSchema;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Index of the UI element the action targets.' })
  elementIndex?: number;

  @ApiPropertyOptional({ type: () => ActionTargetSchema, description: 'What the action targeted, when `type` is `action` and it targets an element.' })
  target?: ActionTargetSchema;

  @ApiPropertyOptional({ type: () => ActionTargetSchema, description: 'The last action\'s target as the final screen shows it, when `type` is `done`.' })
  evidence?: ActionTargetSchema;

  @ApiPropertyOptional({ description: 'When `type` is `done`.' })
  summary?: string;

  @ApiPropertyOptional({ description: 'When `type` is `fail`.' })
  reason?: string;

  @ApiPropertyOptional({ description: 'The tool, when `type` is `tool_call`.', example: 'lookup_order' })
  name?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The tool\'s arguments, when `type` is `tool_call`.' })
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'The call\'s id (`<taskId>:<stepIndex>`), when `type` is `tool_call`.' })
  toolCallId?: string;

  @ApiPropertyOptional({ type: () => GatewayToolCallRefSchema, description: 'When `type` is `tool_call` of one of the gateway\'s tools (run by the gateway, not the caller).' })
  gatewayTool?: GatewayToolCallRefSchema;
}

@ApiSchema({ name: 'StepResult' })
export class StepResultSchema {
  @ApiProperty({ enum: ['success', 'error', 'denied', 'canceled'] })
  status!: 'success' | 'error' | 'denied' | 'canceled';

  @ApiPropertyOptional({
    description: 'Why the action failed: the code its command was rejected with; `TOOL_RESULT_TIMEOUT` for a tool call the caller did not answer in time; a gateway tool\'s failure code (`TOOL_NOT_FOUND`, `TOOL_FAILED`, `TIMEOUT`, …).',
    enum: [...ERROR_CODES],
    example: 'DEVICE_ERROR',
  })
  errorCode?: string;

  @ApiPropertyOptional({ description: 'Why it failed or was denied (for a rejected tool call: the caller\'s reason); for a gateway tool\'s `success`, its result as text.' })
  message?: string;

  @ApiPropertyOptional({ description: 'The tool\'s result (any JSON value), on a `success` tool call.' })
  output?: unknown;

  @ApiPropertyOptional({
    description:
      'For an action: true when the next observation confirms the effect, false when it contradicts it, absent when it cannot tell. ' +
      'For a gateway tool\'s `success`: false when its answer shows no sign the tool itself ran (unverified), absent when the tool ran the call itself.',
  })
  verified?: boolean;
}

@ApiSchema({ name: 'StepTimings', description: 'Phase durations of one step, in ms.' })
export class StepTimingsSchema {
  @ApiPropertyOptional({
    minimum: 0,
    description:
      'Wait for the UI to settle before the screenshot (the UI trees read meanwhile and the pauses between them), in ms; ' +
      '0 when settling is off; absent on steps recorded before it was measured.',
  })
  settleMs?: number;

  @ApiProperty({ minimum: 0, description: 'Capture on the phone of the screenshot and of a UI tree read after it (a settled tree counts in `settleMs`), in ms.' })
  captureMs!: number;

  @ApiProperty({ minimum: 0, description: 'Round-trip of the screenshot (and of a UI tree read after it) minus capture, in ms.' })
  transferMs!: number;

  @ApiProperty({ minimum: 0 })
  planningMs!: number;

  @ApiProperty({ minimum: 0 })
  actionMs!: number;
}

@ApiSchema({ name: 'TaskStep', description: 'One observe → plan → act step.' })
export class TaskStepSchema {
  @ApiProperty({ format: 'uuid' })
  taskId!: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: '0-based.' })
  index!: number;

  @ApiProperty({ format: 'date-time' })
  startedAt!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  endedAt?: string;

  @ApiPropertyOptional({ type: () => StepObservationSchema })
  observation?: StepObservationSchema;

  @ApiPropertyOptional({ type: () => PlanDecisionSchema })
  plan?: PlanDecisionSchema;

  @ApiPropertyOptional({ type: () => StepResultSchema })
  result?: StepResultSchema;

  @ApiProperty({ type: () => StepTimingsSchema })
  timings!: StepTimingsSchema;
}

@ApiSchema({ name: 'TaskWithSteps', description: 'A task and every recorded step.' })
export class TaskWithStepsSchema extends TaskSchema {
  @ApiProperty({ type: () => [TaskStepSchema] })
  steps!: TaskStepSchema[];
}

@ApiSchema({ name: 'TaskPage' })
export class TaskPageSchema {
  @ApiProperty({ type: () => [TaskSchema], description: 'Newest first; steps not included.' })
  tasks!: TaskSchema[];

  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page; absent on the last page.' })
  nextCursor?: string;
}

@ApiSchema({ name: 'TaskAccepted' })
export class TaskAcceptedSchema {
  @ApiProperty({ format: 'uuid' })
  taskId!: string;

  @ApiProperty({ enum: [...TASK_STATUSES], example: 'running' })
  status!: TaskStatus;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based place in the phone\'s queue, when `queued`.' })
  queuePosition?: number;

  @ApiProperty({ description: 'The task\'s Server-Sent Events stream.', example: '/api/tasks/3fe78d53-…/events' })
  events!: string;
}

@ApiSchema({ name: 'TaskEvent', description: 'One record of a task\'s event stream: the JSON `data` of each Server-Sent Event.' })
export class TaskEventSchema {
  @ApiProperty({ format: 'uuid' })
  taskId!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Per task, from 1, no gaps; the SSE `id`.' })
  id!: number;

  @ApiProperty({
    enum: [...TASK_EVENT_TYPES],
    description:
      'The SSE `event`. `data` by type: `task.accepted` `{task}`, `task.queued` `{position}`, `step.started` `{index}`, ' +
      '`step.observed` `{index, observation, timings: {settleMs, captureMs, transferMs}, verifiedStep?}`, `step.planning` `{index, attempt, maxAttempts}` (the LLM planner ' +
      'asked its model for answer `attempt` of at most `maxAttempts`; the rule-based planner sends none), `step.planned` `{index, plan, planningMs}`, ' +
      '`step.acted` `{index, result, timings}`, `task.input_required` `{pendingAction}` (an approval), `{toolApproval}` (an approval of a gateway tool\'s call, as `pendingToolApproval`) or `{toolCall: {toolCallId, name, arguments, kind?, stepIndex}}` (a call of your tool), `task.resumed` `{stepIndex}`, ' +
      '`task.completed` `{status, summary}`, `task.failed`/`task.canceled` `{status, error}`, `task.interrupted` `{status, reason}`.',
    example: 'step.planning',
  })
  type!: TaskEventType;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { index: 0, attempt: 2, maxAttempts: 3 } })
  data!: Record<string, unknown>;
}
