import type { PlanDecision, PlannerHistoryEntry } from '@mobileclaw/domain';
import type { GoalSegment } from './tool-call-clauses';

/** Longest tool result quoted in a summary, in characters of compact JSON. */
export const TOOL_SUMMARY_LIMIT = 500;

/** How a text segment of the goal is planned: the planner's own rules on the history since it began. */
export type PlanText = (text: string, history: readonly PlannerHistoryEntry[]) => PlanDecision;

/**
 * Decides one step of a goal with tool-call clauses ({@link GoalSegment}s), from the history alone:
 * the segments run in order. A tool segment is done once the history holds its `tool_call` (the first
 * one after the previous segment) with a `success` result; a rejected, denied, failed or unanswered call
 * fails the goal (it needed the tool), with the reason. A segment's tool is the caller's or the
 * gateway's (`decision.gatewayTool`, set by the task loop), whichever the task loop called. A text segment is done once a later tool call began, or when
 * its own rules say `done`. The step is the first unfinished segment's: a `tool_call`, or what the rules
 * decide for the text. When every segment is done: `done` with the segments' summaries, a tool's being
 * `<name> returned <result as compact JSON, at most 500 characters>` (and ` (unverified: …)` for a
 * gateway tool's result that shows no sign the tool itself ran).
 */
export function decideWithToolCalls(segments: readonly GoalSegment[], history: readonly PlannerHistoryEntry[], planText: PlanText): PlanDecision {
  const summaries: string[] = [];
  let from = 0;
  for (const [position, segment] of segments.entries()) {
    const callAt = history.findIndex((entry, i) => i >= from && entry.decision.type === 'tool_call');
    if (segment.kind === 'tool') {
      if (callAt === -1) {
        return { type: 'tool_call', name: segment.name, arguments: structuredClone(segment.arguments), reasoning: `The goal asks to ${segment.clause}.` };
      }
      const entry = history[callAt] as PlannerHistoryEntry;
      const result = entry.result;
      const gateway = entry.decision.type === 'tool_call' && entry.decision.gatewayTool !== undefined;
      if (result?.status !== 'success') {
        const why =
          result?.status === 'denied'
            ? `${gateway ? 'it was denied' : 'the caller rejected it'}: ${result.message ?? 'no reason given'}`
            : result?.errorCode === 'TOOL_RESULT_TIMEOUT'
              ? `the caller did not answer in time (${result.message ?? 'TOOL_RESULT_TIMEOUT'})`
              : `it failed: ${result?.errorCode && gateway ? `${result.errorCode}: ` : ''}${result?.message ?? 'no result'}`;
        const whose = gateway ? 'the gateway tool' : result?.errorCode === 'TOOL_NOT_FOUND' ? 'the tool' : "the caller's tool";
        return { type: 'fail', reason: `The goal needs ${whose} ${segment.name} (${segment.clause}), and ${why}.`, reasoning: `The tool ${segment.name} gave no result.` };
      }
      const unverified = result.verified === false ? ' (unverified: the answer shows no sign that the tool itself ran)' : '';
      summaries.push(`${segment.name} returned ${compactJson(result.output)}${unverified}`);
      from = callAt + 1;
      continue;
    }
    // A tool call after this text began: the text's part of the goal was done before it.
    if (callAt !== -1 && position < segments.length - 1) {
      from = callAt;
      continue;
    }
    const decision = planText(segment.text, history.slice(from));
    if (decision.type !== 'done') return decision;
    summaries.push(decision.summary);
    from = history.length;
  }
  return { type: 'done', summary: summaries.join(' '), reasoning: 'Every part of the goal is done.' };
}

/** A JSON value on one line, at most {@link TOOL_SUMMARY_LIMIT} characters (cut with `…`). */
function compactJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > TOOL_SUMMARY_LIMIT ? `${json.slice(0, TOOL_SUMMARY_LIMIT - 1)}…` : json;
}
