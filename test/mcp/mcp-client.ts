import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl } from '../support/test-gateways';

/** Which protocol revision a test client speaks: the stateless 2026-07-28 one, or a 2025 session. */
export type Era = 'modern' | 'legacy';

/** An SDK client connected to a gateway's `/mcp` over Streamable HTTP. */
export async function connectClient(gw: RunningGateway, era: Era, options: { token?: string; elicitation?: boolean } = {}): Promise<Client> {
  const client = new Client(
    { name: `mobileclaw-test-${era}`, version: '1.0.0' },
    {
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      ...(options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const headers: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(gatewayUrl(gw, '/mcp')), { requestInit: { headers } }));
  return client;
}

/**
 * Ends a client as a well-behaved one does: a 2025 session is ended with `DELETE` (so the gateway
 * closes its streams at once), then the transport is closed.
 */
export async function endClient(client: Client): Promise<void> {
  const transport = client.transport;
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) await transport.terminateSession();
  await client.close();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool results are indexed freely in tests
export type Json = any;

/** The text of a tool result's first text block. */
export function textOf(result: Json): string {
  return (result.content as Json[]).find((c) => c.type === 'text')?.text ?? '';
}

/**
 * The element of a get_screen text whose line matches `label` (its quoted text, or a pattern): its
 * index and centre in the image's px.
 * @throws Error naming the label and quoting the text when no element matches.
 */
export function elementLine(text: string, label: string | RegExp): { index: number; cx: number; cy: number } {
  const line = text.split('\n').find((l) => /^\[\d+\]/.test(l) && (typeof label === 'string' ? l.includes(JSON.stringify(label)) : label.test(l)));
  if (!line) throw new Error(`no element ${String(label)} in:\n${text}`);
  const m = /^\[(\d+)\].*center=\((\d+),(\d+)\)/.exec(line)!;
  return { index: Number(m[1]), cx: Number(m[2]), cy: Number(m[3]) };
}
