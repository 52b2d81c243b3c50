/**
 * Answers in the OpenAI Chat Completions wire format, for the local model servers the gateway specs
 * start in place of a paid model.
 */

/** A Chat Completions response (`object: 'chat.completion'`) with one function call and no text. */
export interface ToolCallCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: 'assistant'; content: null; tool_calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] };
    finish_reason: 'tool_calls';
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * The model's answer calling function `name` with `args` (serialised as the wire's JSON string), as
 * model `model` (default `fake-vl`), with fixed ids, time and token counts.
 */
export function toolCallCompletion(name: string, args: Record<string, unknown>, model = 'fake-vl'): ToolCallCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, finish_reason: 'tool_calls' }],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

/**
 * True for a request of the memory's summariser (flush, organize), which offers no functions: the
 * planner's requests always carry `tools` (the phone's actions). The gateway flushes its sessions
 * when it stops, so a local model server meets these too.
 */
export function isMemorySummaryRequest(body: { tools?: unknown }): boolean {
  return !Array.isArray(body.tools);
}

/** The summariser's answer that keeps nothing: message content `{"memories":[]}`. */
export function emptyMemorySummary(model = 'fake-vl'): object {
  return {
    id: 'chatcmpl-memory',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: '{"memories":[]}' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
  };
}
