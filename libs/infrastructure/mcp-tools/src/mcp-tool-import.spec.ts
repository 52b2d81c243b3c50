import type { Tool } from '@modelcontextprotocol/client';
import { importMcpTools } from './mcp-tool-import';

const SOURCE = { kind: 'mcp' as const, id: 'erp' };

function tool(name: string, extra: Partial<Tool> = {}): Tool {
  return { name, inputSchema: { type: 'object' }, ...extra } as Tool;
}

describe('importing MCP tools', () => {
  it('keeps valid names, sanitises others with originalName, and keeps the wire name', () => {
    const imported = importMcpTools([tool('lookup', { description: 'Looks up' }), tool('orders.create', { description: 'Creates an order' })], SOURCE, 'http https://erp/mcp');
    expect(imported.map(({ descriptor, wireName }) => [descriptor.name, descriptor.originalName, wireName])).toEqual([
      ['lookup', undefined, 'lookup'],
      ['orders_create', 'orders.create', 'orders.create'],
    ]);
    expect('originalName' in imported[0]!.descriptor).toBe(false);
  });

  it('numbers later tools whose sanitised names collide, staying within 64 characters', () => {
    const long = 'x'.repeat(64);
    const imported = importMcpTools([tool('a.b'), tool('a b'), tool('a:b'), tool(long), tool(`${long}.`)], SOURCE, 'here');
    expect(imported.map(({ descriptor }) => descriptor.name)).toEqual(['a_b', 'a_b_2', 'a_b_3', long, `${'x'.repeat(62)}_2`]);
  });

  it('takes the kind from readOnlyHint: only a read-only tool is an observation', () => {
    const kinds = importMcpTools(
      [tool('read', { annotations: { readOnlyHint: true } }), tool('write', { annotations: { readOnlyHint: false, destructiveHint: true } }), tool('unsaid')],
      SOURCE,
      'here',
    ).map(({ descriptor }) => descriptor.kind);
    expect(kinds).toEqual(['OBSERVATION', 'ACTION', 'ACTION']);
  });

  it('falls back to the title, then to a sentence naming the tool, for the description', () => {
    const descriptions = importMcpTools([tool('a', { title: 'Alpha' }), tool('b', { description: '  ' }), tool('c', { description: 'Gamma', title: 'C' })], SOURCE, 'here').map(
      ({ descriptor }) => descriptor.description,
    );
    expect(descriptions).toEqual(['Alpha', 'Tool b of MCP server erp', 'Gamma']);
  });

  it('copies the schema, always of type object, and marks every tool available and eligible', () => {
    const schema = { type: 'object' as const, properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };
    const [imported] = importMcpTools([tool('get', { inputSchema: schema })], SOURCE, 'http https://erp/mcp');
    expect(imported!.descriptor).toEqual({
      name: 'get',
      description: 'Tool get of MCP server erp',
      inputSchema: schema,
      kind: 'ACTION',
      mode: 'REMOTE_PROXY',
      source: SOURCE,
      location: 'http https://erp/mcp',
      eligibility: { eligible: true, missing: [] },
      available: true,
    });
    expect(imported!.descriptor.inputSchema.properties).not.toBe(schema.properties);
  });
});
