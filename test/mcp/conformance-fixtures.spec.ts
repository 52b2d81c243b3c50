import { testGateways } from '../support/test-gateways';
import { connectClient, textOf, type Era, type Json } from './mcp-client';

const gateways = testGateways('mobileclaw-mcp-fixtures-');

/** Fixture names follow the conformance suite: `test_*` tools and prompts, `json_schema_2020_12_tool`, `test://` resources. */
const isFixture = (name: string) => name.startsWith('test_') || name.startsWith('json_schema_') || name.startsWith('test://');

describe.each<Era>(['modern', 'legacy'])('MCP conformance fixtures (%s revision)', (era) => {
  it('are not served by default: phone tools only, no prompts, logging or completions', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    expect((await client.listTools()).tools.filter((t) => isFixture(t.name))).toEqual([]);
    expect((await client.listResources()).resources.filter((r) => isFixture(r.uri))).toEqual([]);
    const capabilities = client.getServerCapabilities();
    expect(capabilities).toMatchObject({ tools: {}, resources: { subscribe: true } });
    expect(capabilities).not.toHaveProperty('prompts');
    expect(capabilities).not.toHaveProperty('logging');
    expect(capabilities).not.toHaveProperty('completions');
    await expect(client.callTool({ name: 'test_simple_text', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('are served next to the phone tools with MOBILECLAW_MCP_CONFORMANCE_FIXTURES=on', async () => {
    const gw = await gateways.start({ MOBILECLAW_MCP_CONFORMANCE_FIXTURES: 'on' });
    const client = await connectClient(gw, era);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_devices', 'run_task', 'test_simple_text', 'test_image_content', 'json_schema_2020_12_tool']));
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
    expect(textOf((await client.callTool({ name: 'test_simple_text', arguments: {} })) as Json)).toBe('This is a simple text response for testing.');
    const resource: Json = await client.readResource({ uri: 'test://template/42/data' });
    expect(JSON.parse(resource.contents[0].text)).toEqual({ id: '42', templateTest: true, data: 'Data for ID: 42' });
    const prompt: Json = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } }]);
    await client.close();
  });
});
