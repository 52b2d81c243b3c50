import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { PlannerHistoryEntry } from '@mobileclaw/domain';

/**
 * Skills' instructions in the conversation (progressive disclosure): the model sees a skill's name
 * and description as a gateway tool, and only once it calls the skill (activates it) does the body
 * of its SKILL.md enter the conversation — as the result of that call, so that the model follows it
 * with the phone's tools in the steps after. Each step's conversation is built from the task's
 * history alone, so every activation so far is replayed in each later step.
 */

/** The id of the replayed call of the skill activated at step `index`. */
export function skillCallId(index: number): string {
  return `call_skill_${index}`;
}

/**
 * For each successful activation of a skill in `history` (a `tool_call` of a gateway tool of mode
 * `SKILL`), oldest first: the model's call (an assistant message with the tool call) and its result (a
 * `tool` message: `Instructions of skill <name>, activated at step #<n>: follow them with the phone's
 * tools, one step at a time.` then the instructions, the step's result text).
 */
export function skillActivationMessages(history: readonly PlannerHistoryEntry[]): ChatCompletionMessageParam[] {
  return history.flatMap((entry): ChatCompletionMessageParam[] => {
    const { decision, result } = entry;
    if (decision.type !== 'tool_call' || decision.gatewayTool?.mode !== 'SKILL' || result?.status !== 'success') return [];
    const id = skillCallId(entry.index);
    const instructions = result.message ?? (typeof result.output === 'string' ? result.output : JSON.stringify(result.output));
    return [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: decision.name, arguments: JSON.stringify(decision.arguments) } }] },
      {
        role: 'tool',
        tool_call_id: id,
        content: `Instructions of skill ${decision.name}, activated at step #${entry.index + 1}: follow them with the phone's tools, one step at a time.\n\n${instructions}`,
      },
    ];
  });
}
