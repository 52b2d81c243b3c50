import type { Tool } from '@modelcontextprotocol/client';
import { TOOL_NAME_MAX_LENGTH, sanitizeToolName, toolEligibility, type ToolDescriptor, type ToolInputSchema, type ToolSourceRef } from '@mobileclaw/domain';

/** A remote tool as the source lists it, with the name to use on the wire. */
export interface ImportedMcpTool {
  descriptor: ToolDescriptor;
  /** The server's own name, sent in `tools/call`. */
  wireName: string;
}

/**
 * The descriptors of a server's `tools/list`, in the server's order (mode `REMOTE_PROXY`, all available):
 * - `name`: the server's name sanitised ({@link sanitizeToolName}), `originalName` when that changed it;
 *   a later tool whose sanitised name is already taken gets `_2`, `_3`, … (cut to stay within 64), so
 *   names stay unique in the source whatever the server sends;
 * - `description`: the server's, else its `title`, else `Tool <name> of MCP server <id>`;
 * - `inputSchema`: the server's JSON Schema as is (`type` forced to `'object'`, as MCP requires);
 * - `kind`: `OBSERVATION` when `annotations.readOnlyHint` is true, else `ACTION` (MCP's own default:
 *   a tool may change the world unless it says otherwise).
 */
export function importMcpTools(tools: readonly Tool[], source: ToolSourceRef, location: string): ImportedMcpTool[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const name = uniqueName(sanitizeToolName(tool.name), taken);
    taken.add(name);
    const description = [tool.description, tool.title].find((text) => typeof text === 'string' && text.trim() !== '') ?? `Tool ${tool.name} of MCP server ${source.id}`;
    const descriptor: ToolDescriptor = {
      name,
      ...(name === tool.name ? {} : { originalName: tool.name }),
      description,
      inputSchema: inputSchemaOf(tool),
      kind: tool.annotations?.readOnlyHint === true ? 'OBSERVATION' : 'ACTION',
      mode: 'REMOTE_PROXY',
      source: { ...source },
      location,
      eligibility: toolEligibility(),
      available: true,
    };
    return { descriptor, wireName: tool.name };
  });
}

function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = name.slice(0, TOOL_NAME_MAX_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

function inputSchemaOf(tool: Tool): ToolInputSchema {
  // A JSON round trip: a plain, caller-owned copy of whatever the server sent.
  const schema = JSON.parse(JSON.stringify(tool.inputSchema ?? {})) as Record<string, unknown>;
  return { ...schema, type: 'object' };
}
