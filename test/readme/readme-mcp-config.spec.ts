import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_DESKTOP_CONFIG } from '@mobileclaw/gateway';

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The README's `json` blocks that configure an MCP client, parsed. */
function clientConfigs(): { mcpServers: { mobileclaw: Record<string, unknown> } }[] {
  return [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).filter((block) => block.includes('"mcpServers"')).map((block) => JSON.parse(block));
}

describe("the README's MCP client configurations", () => {
  it("show the stdio bridge exactly as `mobileclaw mcp --help` does", () => {
    const commands = clientConfigs().filter((c) => 'command' in c.mcpServers.mobileclaw);
    expect(commands).toEqual([MCP_DESKTOP_CONFIG]);
  });

  it('show a URL client sending the API token as a bearer header', () => {
    const urls = clientConfigs().filter((c) => 'url' in c.mcpServers.mobileclaw);
    expect(urls).toEqual([{ mcpServers: { mobileclaw: { url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer <your MOBILECLAW_API_TOKEN>' } } } }]);
  });
});
