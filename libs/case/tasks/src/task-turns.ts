import type { ActionTarget, AgentAction, PlanDecision, StepResult, Task } from '@mobileclaw/domain';

/**
 * The turns a task adds to its memory's session layer, as short text: the goal (`user`), each step's
 * decision (`assistant`), each step's result (`tool`) and the task's end (`assistant`).
 */

/** What stands for a typed text that must never reach memory. */
export const SECRET_TURN_TEXT = '[secret]';

/** The longest text quoted in a turn (a typed text, a tool's arguments, a summary), in characters. */
const QUOTE_MAX_CHARS = 300;

/**
 * A decision as a turn, e.g. `tap "Wi-Fi"`, `type "hello" into "Message"`, `open com.android.settings`,
 * `call memory_store {"text":"mom is Alice"}`, `done: Wi-Fi is on`. A typed text is `[secret]` unless
 * the decision's target is known and no password field — the rule skill learning keeps secrets by:
 * where the field is unknown, nothing tells it was no password field.
 */
export function decisionTurnText(decision: PlanDecision): string {
  switch (decision.type) {
    case 'action':
      return actionText(decision.action, decision.target);
    case 'done':
      return `done: ${quote(decision.summary)}`;
    case 'fail':
      return `fail: ${quote(decision.reason)}`;
    case 'tool_call':
      return `call ${decision.name} ${quote(JSON.stringify(decision.arguments))}`;
  }
}

/** A step's result as a turn: `ok`, `error <CODE>`, `denied`, `canceled`, with the tool's answer text when it gave one. */
export function resultTurnText(result: StepResult): string {
  const status = result.status === 'success' ? 'ok' : result.status === 'error' ? `error ${result.errorCode ?? 'UNKNOWN'}` : result.status;
  return result.status === 'success' && result.message ? `${status}: ${quote(result.message)}` : status;
}

/** The task's end as a turn: `task completed: <summary>`, `task failed: <CODE> <message>`. */
export function finalTurnText(task: { status: Task['status']; summary?: string | undefined; error?: Task['error'] | undefined }): string {
  if (task.status === 'completed') return `task completed${task.summary ? `: ${quote(task.summary)}` : ''}`;
  return `task ${task.status}${task.error ? `: ${task.error.code} ${quote(task.error.message)}` : ''}`;
}

function actionText(action: AgentAction, target: ActionTarget | undefined): string {
  const on = target ? targetName(target) : undefined;
  switch (action.command) {
    case 'click':
      return on ? `tap ${on}` : `tap (${action.x}, ${action.y})`;
    case 'long_press':
      return on ? `long press ${on}` : `long press (${action.x}, ${action.y})`;
    case 'swipe':
      return `swipe (${action.x1}, ${action.y1}) → (${action.x2}, ${action.y2})`;
    case 'input': {
      const secret = !target || target.password === true;
      const text = secret ? SECRET_TURN_TEXT : JSON.stringify(quote(action.text));
      return on ? `type ${text} into ${on}` : `type ${text}`;
    }
    case 'open':
      return `open ${action.app}`;
    default:
      return action.command;
  }
}

/** An element by what people read on it: `"Wi-Fi"`, else its resource id, else its type. A field's own text is its value, never its name. */
function targetName(target: ActionTarget): string {
  const label = target.label ?? (target.editable ? undefined : target.text) ?? target.desc;
  if (label !== undefined && label !== '') return JSON.stringify(quote(label));
  return target.resourceId ?? target.type;
}

function quote(text: string): string {
  return text.length > QUOTE_MAX_CHARS ? `${text.slice(0, QUOTE_MAX_CHARS)}…` : text;
}
