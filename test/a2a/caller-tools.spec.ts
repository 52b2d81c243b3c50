import { randomUUID } from 'node:crypto';
import type { RunningGateway } from '@mobileclaw/gateway';
import { ClientFactory, Role, TaskState, type Client, type Message, type StreamResponse } from '../support/a2a-sdk-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-a2a-tools-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const lookupOrder = {
  name: 'lookup_order',
  description: 'Finds an order of the shop by its id.',
  inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } },
  kind: 'OBSERVATION',
};
const GOAL = 'call lookup_order with {"orderId":"A-17"} and then open Settings';

async function start(extra: Record<string, string> = {}): Promise<{ gw: RunningGateway; a2a: Client }> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  return { gw, a2a: await new ClientFactory().createFromUrl(gatewayUrl(gw, '')) };
}

function message(text: string, extra: Partial<Message> = {}, data?: Record<string, unknown>): Message {
  const parts = text === '' ? [] : [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  if (data) parts.push({ content: { $case: 'data', value: data } as never, metadata: undefined, filename: '', mediaType: 'application/json' });
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}

function send(sent: Message) {
  return { tenant: '', message: sent, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false }, metadata: undefined };
}

describe('caller tools over A2A (real gateway, simulated phone, @a2a-js/sdk client)', () => {
  it('asks for the tool call as INPUT_REQUIRED with {toolCall}, takes {toolCallId, result} as the next message, and completes', async () => {
    const { gw, a2a } = await start();
    const waiting = (await a2a.sendMessage(send(message(GOAL, {}, { deviceId: 'sim-1', tools: [lookupOrder] })))) as Json;
    expect(waiting.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const toolCallId = `${waiting.id}:0`;
    expect(waiting.status.message.parts[0].content.value).toBe(`Tool call lookup_order (${toolCallId}): waiting for the caller's result.`);
    expect(waiting.status.message.parts[1].content.value).toStrictEqual({ toolCall: { toolCallId, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION' } });

    // Neither a result nor a rejection: refused, saying what to send.
    await expect(a2a.sendMessage(send(message('yes', { taskId: waiting.id })))).rejects.toThrow(
      `VALIDATION_FAILED: task ${waiting.id} waits for the caller's answer to tool call ${toolCallId} (lookup_order): send a data part {"toolCallId": "${toolCallId}", "result": <any JSON>} or {"toolCallId": "${toolCallId}", "rejected": "<reason>"}`,
    );

    // Both a result and a rejection, a result nested 2,000 levels deep, a prototype key: refused as over REST, the call still pending.
    await expect(a2a.sendMessage(send(message('', { taskId: waiting.id }, { toolCallId, result: 1, rejected: 'x' })))).rejects.toThrow(
      'VALIDATION_FAILED: an answer to a tool call carries either "result" or "rejected", not both',
    );
    let deep: unknown = 'bottom';
    for (let i = 0; i < 2000; i++) deep = { a: deep };
    await expect(a2a.sendMessage(send(message('', { taskId: waiting.id }, { toolCallId, result: deep })))).rejects.toThrow(`VALIDATION_FAILED: result${'.a'.repeat(32)}: nesting deeper than 32 levels`);
    await expect(a2a.sendMessage(send(message('', { taskId: waiting.id }, { toolCallId, result: JSON.parse('{"__proto__":{"admin":true}}') })))).rejects.toThrow(
      'VALIDATION_FAILED: result.__proto__: property __proto__ is not allowed',
    );

    const done = (await a2a.sendMessage(send(message('', { taskId: waiting.id, contextId: waiting.contextId }, { toolCallId, result: { status: 'shipped' } })))) as Json;
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.status.message.parts[0].content.value.startsWith('lookup_order returned {"status":"shipped"} ')).toBe(true);
    expect(gw.simulator!.ui.state.screen).toBe('settings');

    // The same answer again: the call is no longer pending.
    await expect(a2a.sendMessage(send(message('', { taskId: waiting.id }, { toolCallId, result: { status: 'shipped' } })))).rejects.toThrow(/TOOL_CALL_NOT_PENDING: task .* is completed and waits for no tool call/);
  });

  it('streams up to INPUT_REQUIRED for the tool call; a rejection from message metadata tools fails the goal', async () => {
    const { a2a } = await start();
    const events: StreamResponse[] = [];
    const created = message(GOAL, { metadata: { tools: [lookupOrder] } });
    for await (const event of a2a.sendMessageStream(send(created))) events.push(event);
    const last = events.at(-1)!.payload as Json;
    expect(last.$case).toBe('statusUpdate');
    expect(last.value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { toolCall } = last.value.status.message.parts[1].content.value;
    expect(toolCall).toMatchObject({ name: 'lookup_order', arguments: { orderId: 'A-17' } });
    const failed = (await a2a.sendMessage(send(message('', { taskId: last.value.taskId }, { toolCallId: toolCall.toolCallId, rejected: 'the user declined' })))) as Json;
    expect(failed.status.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failed.status.message.parts[0].content.value).toBe(
      'GOAL_FAILED: The goal needs the caller\'s tool lookup_order (call lookup_order), and the caller rejected it: the user declined.',
    );
  });

  it('refuses invalid tools with the field named', async () => {
    const { a2a } = await start();
    await expect(a2a.sendMessage(send(message(GOAL, {}, { tools: [{ ...lookupOrder, name: 'done' }] })))).rejects.toThrow('VALIDATION_FAILED: tool name done is reserved');
  });
});
