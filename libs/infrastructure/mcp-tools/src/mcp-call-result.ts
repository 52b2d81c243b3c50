import type { CallToolResult } from '@modelcontextprotocol/client';
import { toolFailure, toolSuccess, type ToolContent, type ToolInvocationResult } from '@mobileclaw/domain';

/**
 * A `tools/call` result as a {@link ToolInvocationResult}:
 * - success: `content` is the `structuredContent` when the server sent one, else the content blocks
 *   (`[{type: 'text', text}, {type: 'image', data, mimeType}, …]`) as JSON; `text` is the text blocks
 *   joined by blank lines, with other blocks named (`[image image/png]`, `[resource <uri>]`), or the
 *   structured content as JSON when there are no blocks;
 * - `isError: true`: a `TOOL_FAILED` failure whose message is the server's text (or `the tool reported
 *   an error` when it sent none);
 * - larger than `maxBytes` (the result's JSON, in bytes of UTF-8): a `PAYLOAD_TOO_LARGE` failure
 *   giving both sizes, so nothing unbounded reaches a model's context or a task's timeline.
 */
export function mcpCallResultToInvocationResult(result: CallToolResult, toolName: string, maxBytes: number): ToolInvocationResult {
  const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
  if (bytes > maxBytes) return toolFailure('PAYLOAD_TOO_LARGE', `the result of ${toolName} is ${bytes} bytes, over the limit of ${maxBytes} bytes`);
  const blocks = Array.isArray(result.content) ? result.content : [];
  const text = blocks.map(describeBlock).join('\n\n');
  if (result.isError === true) return toolFailure('TOOL_FAILED', text.trim() === '' ? `${toolName}: the tool reported an error` : `${toolName}: ${text}`);
  const structured = result.structuredContent as ToolContent | undefined;
  const content = structured ?? (JSON.parse(JSON.stringify(blocks)) as ToolContent);
  if (text === '' && structured !== undefined) return toolSuccess(content, JSON.stringify(structured));
  return toolSuccess(content, text);
}

function describeBlock(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}]`;
    case 'resource':
      return 'text' in block.resource && typeof block.resource.text === 'string' ? block.resource.text : `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource_link ${block.uri}]`;
    default:
      return `[${(block as { type: string }).type}]`;
  }
}
