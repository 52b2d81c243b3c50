import { randomUUID } from 'node:crypto';
import type { RunningGateway } from '@mobileclaw/gateway';
import { ClientFactory, Role, type Client, type Message } from '../support/a2a-sdk-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-a2a-new-');

function userMessage(text: string, contextId = ''): Message {
  const parts = [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  return { messageId: randomUUID(), contextId, taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function send(message: Message) {
  return { tenant: '', message, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false }, metadata: undefined };
}

async function session(gw: RunningGateway, scope: string): Promise<{ turns: { role: string; text: string }[] }> {
  return (await fetch(gatewayUrl(gw, `/api/memory/session?scope=${encodeURIComponent(scope)}`))).json() as Promise<{ turns: { role: string; text: string }[] }>;
}

describe('A2A /new: a conversation ends and its session goes to memory', () => {
  let gw: RunningGateway;
  let a2a: Client;

  // The gateways of a test are stopped after it.
  beforeEach(async () => {
    gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    a2a = await new ClientFactory().createFromUrl(gatewayUrl(gw, ''));
  });

  it('flushes the session of the message’s context into the daily memory and answers with a message, no task', async () => {
    const done = (await a2a.sendMessage(send(userMessage('Turn on Wi-Fi', 'trip-7')))) as { status?: { state?: number }; metadata?: { status?: string } };
    expect(done.metadata?.status).toBe('completed');
    const before = await session(gw, 'context:trip-7');
    expect(before.turns[0]).toMatchObject({ role: 'user', text: 'Turn on Wi-Fi' });

    const answer = (await a2a.sendMessage(send(userMessage(' /NEW ', 'trip-7')))) as Message;
    expect(answer).toMatchObject({ role: Role.ROLE_AGENT, contextId: 'trip-7' });
    const [text, data] = answer.parts.map((part) => part.content);
    const outcome = (data as { value: { turns: number; stored: { id: string; layer: string }[] } }).value;
    expect(outcome.turns).toBe(before.turns.length);
    // The rule-based summariser keeps the goal and its outcome as one task memory of the day.
    expect(outcome.stored).toEqual([{ id: expect.stringMatching(/^mem_[0-9a-f]{24}$/), layer: 'daily' }]);
    expect(text).toEqual({ $case: 'text', value: `Started a new conversation: ${before.turns.length} turns of the last one summarised, 1 memory kept.` });

    expect((await session(gw, 'context:trip-7')).turns).toEqual([]);
    const record = (await (await fetch(gatewayUrl(gw, `/api/memory/${outcome.stored[0].id}`))).json()) as { scope: string; layer: string; text: string };
    expect(record).toMatchObject({ scope: 'context:trip-7', layer: 'daily', text: expect.stringContaining('Turn on Wi-Fi') });
  });

  it('ends an empty session with nothing kept, and refuses /new without a conversation', async () => {
    const answer = (await a2a.sendMessage(send(userMessage('/new', 'never-used')))) as Message;
    expect((answer.parts[1].content as { value: unknown }).value).toEqual({ turns: 0, stored: [] });
    await expect(a2a.sendMessage(send(userMessage('/new')))).rejects.toThrow(/VALIDATION_FAILED: \/new ends a conversation: send it with the contextId/);
  });
});
