import * as z from 'zod/v4';
import { acceptedContent, inputRequired, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { MobileClawError, type AgentAction, type Task, type TaskEvent } from '@mobileclaw/domain';
import { APPROVAL_INPUT, approvalAnswer, approvalForm } from './approval-question';
import { EventCursor } from './event-cursor';
import { failWith } from './phone-tools';
import { registerCheckedTool } from './tool-arguments';
import { clientCanElicit, deviceFor, type PhoneToolDeps } from './tool-context';
import { toolError } from './tool-results';

/** Characters of typed text a progress line shows (code points: an emoji is never cut in half). */
const SHOWN_INPUT_CHARS = 40;

/**
 * One short line for an action, e.g. `click (540,1210)`, `input "hello"`, `open com.android.settings`;
 * typed text longer than 40 characters is cut there and ends with `…`.
 */
export function describeAction(action: AgentAction): string {
  switch (action.command) {
    case 'click':
    case 'long_press':
      return `${action.command} (${action.x},${action.y})`;
    case 'swipe':
      return `swipe (${action.x1},${action.y1})→(${action.x2},${action.y2})`;
    case 'input': {
      const chars = [...action.text];
      return `input ${JSON.stringify(chars.length > SHOWN_INPUT_CHARS ? `${chars.slice(0, SHOWN_INPUT_CHARS).join('')}…` : action.text)}`;
    }
    case 'open':
      return `open ${action.app}`;
    default:
      return action.command;
  }
}

/** The progress line of a task event, or undefined for events that are not progress. */
export function progressLine(event: TaskEvent): string | undefined {
  const data = event.data;
  const step = typeof data['index'] === 'number' ? `step ${data['index'] + 1}` : 'step';
  switch (event.type) {
    case 'task.queued':
      return `queued behind ${String(data['queuePosition'] ?? 'other')} task(s) on the phone`;
    case 'task.started':
      return 'started';
    case 'step.planned': {
      const plan = data['plan'] as { type: string; action?: AgentAction; summary?: string; reason?: string } | undefined;
      if (plan?.type === 'action' && plan.action) return `${step}: ${describeAction(plan.action)}`;
      if (plan?.type === 'done') return `${step}: goal reached${plan.summary ? ` — ${plan.summary}` : ''}`;
      if (plan?.type === 'fail') return `${step}: giving up${plan.reason ? ` — ${plan.reason}` : ''}`;
      return undefined;
    }
    case 'step.acted': {
      const result = data['result'] as { status?: string; verified?: boolean; message?: string } | undefined;
      const verified = result?.verified === true ? ', verified on the next screen' : result?.verified === false ? ', not confirmed by the next screen' : '';
      return `${step}: ${result?.status ?? 'done'}${verified}${result?.status === 'error' && result.message ? ` (${result.message})` : ''}`;
    }
    case 'task.input_required': {
      const pending = data['pendingAction'] as { reason?: string } | undefined;
      return `waiting for approval: ${pending?.reason ?? 'a sensitive action'}`;
    }
    case 'task.resumed':
      return 'approved; resuming';
    default:
      return undefined;
  }
}

/**
 * The progress lines of one task's events, in order: {@link progressLine} of each, except the result
 * of a step that planned `done` or `fail` (its "goal reached" or "giving up" line already said how
 * it ended; "step N: success" after it would read as one more action).
 */
export class TaskProgressLines {
  /** Indices of the steps whose plan ended the task. */
  private readonly ending = new Set<number>();

  line(event: TaskEvent): string | undefined {
    const index = event.data['index'];
    if (event.type === 'step.planned' && typeof index === 'number') {
      const type = (event.data['plan'] as { type?: string } | undefined)?.type;
      if (type === 'done' || type === 'fail') this.ending.add(index);
    }
    if (event.type === 'step.acted' && typeof index === 'number' && this.ending.has(index)) return undefined;
    return progressLine(event);
  }
}

/**
 * Registers `run_task`: starts the agent workflow on a goal, reports each step as MCP progress,
 * answers the summary and the task id. Cancelling the request cancels the task (and the phone
 * command in flight). A step that needs approval asks the user where the client can be asked.
 */
export function registerTaskTools(deps: PhoneToolDeps): void {
  const fail = failWith(deps);
  registerCheckedTool(
    deps.server,
    'run_task',
    {
      title: 'Run a task',
      description:
        'Has the gateway\'s agent reach a goal on a phone by itself (e.g. "open Settings and turn on Wi-Fi"): it looks at the screen, acts, checks, and repeats. ' +
        'Reports progress per step; answers with the summary and the task id. Cancel the request to cancel the task. Use the single-action tools instead for fine control. ' +
        'A sensitive step (paying, deleting, a message to someone who is not a contact…) asks the user through the client where it can; otherwise the task waits ' +
        'and the result says how the user approves it.',
      inputSchema: z
        .object({
          deviceId: z.string().min(1).max(128).optional().describe('Phone to use; optional when only one phone is online.'),
          goal: z.string().min(1).max(2000).describe('What to achieve, in plain words (at most 2000 characters).'),
          maxSteps: z.number().int().min(1).max(200).optional().describe('Step budget (default 25).'),
        })
        .strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, ctx) => {
      try {
        const resumed = resumedState(ctx);
        if (resumed !== undefined) {
          const approval = acceptedContent(ctx.mcpReq.inputResponses, APPROVAL_INPUT, approvalAnswer);
          await deps.tasks.approve(resumed.taskId, approval?.approve === true);
          // Events up to the answered question were reported in the earlier round.
          return await follow(deps, ctx, resumed.taskId, resumed.eventId);
        }
        const deviceId = await deviceFor(deps, args);
        return await follow(deps, ctx, (await deps.tasks.start({ deviceId, goal: args.goal, maxSteps: args.maxSteps })).taskId);
      } catch (err) {
        return fail(err);
      }
    },
  );
}

/** What `run_task` seals into the `requestState` of its approval question: the task, and the id of the `task.input_required` event asked about. */
interface RunTaskState {
  tool: 'run_task';
  taskId: string;
  eventId: number;
}

/**
 * The state a 2026-07-28 retry carries in its `requestState` (set when it asked for approval). The
 * server has verified the seal before the handler runs, so it is one this gateway issued.
 */
function resumedState(ctx: ServerContext): RunTaskState | undefined {
  const state = ctx.mcpReq.requestState<Partial<RunTaskState>>();
  return state?.tool === 'run_task' && typeof state.taskId === 'string' && typeof state.eventId === 'number' ? (state as RunTaskState) : undefined;
}

/** Reports the task's events after `afterEventId` as progress until it ends or needs an approval this round cannot get. */
async function follow(deps: PhoneToolDeps, ctx: ServerContext, taskId: string, afterEventId = 0): Promise<CallToolResult | InputRequiredResult> {
  const { tasks } = deps;
  const signal = ctx.mcpReq.signal;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  let progress = 0;
  const lines = new TaskProgressLines();
  const cancel = () => void tasks.cancel(taskId, 'canceled by the MCP client').catch(() => undefined);
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  const cursor = new EventCursor(tasks.events(taskId, afterEventId));
  try {
    for (let event = await cursor.next(); event !== undefined; event = await cursor.next()) {
      const line = lines.line(event);
      if (line !== undefined && progressToken !== undefined && !signal.aborted) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: ++progress, message: line } });
      }
      if (event.type !== 'task.input_required') continue;
      const reason = (event.data['pendingAction'] as { reason?: string; action?: AgentAction } | undefined) ?? {};
      const message = `The task on the phone wants to ${reason.action ? describeAction(reason.action) : 'act'}: ${reason.reason ?? 'a sensitive action'}. Approve?`;
      if (!clientCanElicit(deps, ctx)) {
        const waits = new MobileClawError(
          'APPROVAL_REQUIRED',
          `task ${taskId} waits for a human's approval (${reason.reason ?? 'sensitive action'}); approve or deny it with POST /api/tasks/${taskId}/approval {"approve": true|false} or on the live page`,
        );
        return toolError(waits, {
          APPROVAL_REQUIRED:
            `Ask the user to approve or deny it there, then read the resource mobileclaw://tasks/${taskId} to follow the task. ` +
            'Do not call run_task again for this goal: that would start a second task, queued behind this one.',
        });
      }
      if (deps.session) {
        // A 2025 session can push the question to the client and wait for the answer here; tied to this
        // request so it travels on the request's own stream, not on a GET stream the client may not have opened.
        const answer = await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema: approvalForm() }, { signal, relatedRequestId: ctx.mcpReq.id });
        await tasks.approve(taskId, answer.action === 'accept' && (answer.content as { approve?: unknown } | undefined)?.approve === true);
        continue;
      }
      return inputRequired({
        inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit({ message, requestedSchema: approvalForm() }) },
        requestState: await deps.requestState.mint({ tool: 'run_task', taskId, eventId: event.id } satisfies RunTaskState),
      });
    }
    return taskResult(await tasks.find(taskId));
  } finally {
    cursor.close();
    signal.removeEventListener('abort', cancel);
  }
}

function taskResult(task: Task): CallToolResult {
  const facts = { taskId: task.taskId, deviceId: task.deviceId, status: task.status, stepCount: task.stepCount, summary: task.summary, error: task.error };
  if (task.status === 'completed') {
    return { content: [{ type: 'text', text: `Completed in ${task.stepCount} step(s): ${task.summary ?? ''} (task ${task.taskId})` }], structuredContent: facts };
  }
  const code = task.error?.code ?? 'INTERNAL_ERROR';
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: task ${task.taskId} ended ${task.status} after ${task.stepCount} step(s): ${task.error?.message ?? ''}` }],
    structuredContent: facts,
  };
}
