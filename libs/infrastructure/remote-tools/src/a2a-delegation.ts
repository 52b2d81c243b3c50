import { toolFailure, toolSuccess, type ToolContent, type ToolInvocationResult } from '@mobileclaw/domain';
import { Role, type Artifact, type Message, type Part, type Task } from './a2a-sdk';

/**
 * The text of a delegation: the explicit instruction to call the named tool (a remote model left to
 * itself may answer in prose instead), with the arguments repeated as JSON.
 */
export function delegationInstruction(tool: string, args: Record<string, unknown>): string {
  return [
    `Call your tool "${tool}" exactly once with the JSON arguments below, and answer with what it returned.`,
    'Do not answer from your own knowledge instead of calling it, and do not ask questions: if you cannot call it, fail the task and say why.',
    `Arguments: ${JSON.stringify(args)}`,
  ].join('\n');
}

/** What a delegated call's remote task showed by its end, as read from the stream and the task. */
export interface DelegationRecord {
  /** The tool's name at the remote (the skill id). */
  tool: string;
  /** The task as the remote last reported it (its history and artifacts), when it made one. */
  task?: Task;
  /** The answer the remote ended with: the terminal status's message, or its direct reply when it made no task. */
  final?: Message;
  /** Artifacts seen on the stream, in order (the task's own list wins when it has them). */
  streamedArtifacts: Artifact[];
}

/**
 * The result of a completed delegation, never an empty success. The answer is the first non-empty of:
 * the final message; the task history's last agent message; the last artifact with content. Its
 * `content` is the data of its data parts (one value, or a list of several), else its text; its `text`
 * the joined text parts, else the data's JSON. Nothing anywhere → `TOOL_BAD_RESPONSE`.
 *
 * `verified` follows {@link toolCallShown}: `false` marks an answer that shows no sign of the tool
 * (plain prose), which callers must not pass off as the tool's result.
 */
export function delegationResult(record: DelegationRecord, toolName: string): ToolInvocationResult {
  const history = (record.task?.history ?? []).filter((message) => message.role === Role.ROLE_AGENT);
  const artifacts = artifactsOf(record);
  const answer =
    partsAnswer(record.final?.parts ?? []) ??
    history.reduceRight<Answer | undefined>((found, message) => found ?? partsAnswer(message.parts), undefined) ??
    artifacts.reduceRight<Answer | undefined>((found, artifact) => found ?? partsAnswer(artifact.parts), undefined);
  if (answer === undefined) {
    return toolFailure('TOOL_BAD_RESPONSE', `the agent ended ${toolName} with no answer: an empty final message, no agent message in the task's history, no artifact with content`);
  }
  return { ...toolSuccess(answer.content, answer.text), verified: toolCallShown(record) };
}

/**
 * Whether the remote showed that the tool was called — the rule for `verified`: the task has an
 * artifact with content (a tool's output, by A2A's own terms), or an agent message (the final one or
 * one in the history) has a data part (structured output, not prose), or the task, an agent message or
 * an artifact lists the call in its metadata as `toolCalls: [name | {name}]` naming the tool. A reply
 * of text alone shows none of these.
 */
export function toolCallShown(record: DelegationRecord): boolean {
  const messages = [...(record.task?.history ?? []), ...(record.final ? [record.final] : [])].filter((message) => message.role === Role.ROLE_AGENT);
  const artifacts = artifactsOf(record);
  if (artifacts.some((artifact) => partsAnswer(artifact.parts) !== undefined)) return true;
  if (messages.some((message) => message.parts.some((part) => part.content?.$case === 'data' && part.content.value !== undefined))) return true;
  const metadata = [record.task?.metadata, ...messages.map((message) => message.metadata), ...artifacts.map((artifact) => artifact.metadata)];
  return metadata.some((entry) => listsToolCall(entry, record.tool));
}

/** The text parts of `parts`, joined by newlines (blank ones left out). */
export function partsText(parts: readonly Part[]): string {
  return parts.flatMap((part) => (part.content?.$case === 'text' && part.content.value.trim() !== '' ? [part.content.value] : [])).join('\n');
}

interface Answer {
  content: ToolContent;
  text: string;
}

function partsAnswer(parts: readonly Part[]): Answer | undefined {
  const text = partsText(parts);
  const data = parts.flatMap((part) => (part.content?.$case === 'data' && part.content.value !== undefined ? [part.content.value as ToolContent] : []));
  const urls = parts.flatMap((part) => (part.content?.$case === 'url' ? [part.content.value] : []));
  const shown = [text, ...urls].filter((piece) => piece !== '').join('\n');
  if (data.length === 0 && shown === '') return undefined;
  const content: ToolContent = data.length === 0 ? shown : data.length === 1 ? data[0]! : data;
  return { content, text: shown !== '' ? shown : JSON.stringify(content) };
}

function artifactsOf(record: DelegationRecord): Artifact[] {
  const own = record.task?.artifacts ?? [];
  return own.length > 0 ? own : record.streamedArtifacts;
}

function listsToolCall(metadata: Record<string, unknown> | undefined, tool: string): boolean {
  const calls = metadata?.['toolCalls'];
  if (!Array.isArray(calls)) return false;
  return calls.some((call) => call === tool || (typeof call === 'object' && call !== null && (call as { name?: unknown }).name === tool));
}
