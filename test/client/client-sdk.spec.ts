import type { ServerResponse, IncomingMessage } from 'node:http';
import { MobileClawClientError, type InvocationEvent } from '@mobileclaw/client';
import { clientSdkHarness, storedShownIds, taskIdOf, tasksOf } from '../support/client-sdk';
import { gatewayUrl } from '../support/test-gateways';

const { start, newClient, proxyTo } = clientSdkHarness('mobileclaw-client-sdk-');

describe('@mobileclaw/client against a real gateway with a simulated phone', () => {
  it('STREAMING: every step as typed events, ending with completed', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const invocation = client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'crm-ticket-1' });
    const events: InvocationEvent[] = [];
    for await (const event of invocation) events.push(event);
    expect(events[0]).toEqual({ invocationRef: invocation.invocationRef, conversationId: 'crm-ticket-1', eventId: 1, type: 'accepted' });
    expect(events.at(-1)).toMatchObject({ type: 'completed', summary: expect.any(String) });
    expect(events.filter((e) => e.type === 'step_progress' && e.phase === 'acted').length).toBeGreaterThan(0);
    expect(gw.simulator!.ui.state.wifi).toBe(true);
    const taskId = await taskIdOf(client, invocation.invocationRef);
    expect(events.map((e) => e.eventId)).toEqual(await storedShownIds(gw, taskId));
    expect(await tasksOf(gw, 'crm-ticket-1')).toEqual([expect.objectContaining({ taskId, goal: 'Turn on Wi-Fi' })]);
  });

  it('BLOCKING: resolves with the final result', async () => {
    const gw = await start();
    const result = await newClient(gatewayUrl(gw, '')).invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
    expect(result).toMatchObject({ status: 'completed', summary: expect.any(String), stepCount: expect.any(Number) });
    expect(result.stepCount).toBeGreaterThanOrEqual(2);
    expect(gw.simulator!.ui.state.wifi).toBe(true);
  });

  it('ASYNC: returns once accepted; the app follows later with the invocationRef only', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const accepted = await client.invoke({ mode: 'ASYNC', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'order-4711-wifi' });
    expect(accepted).toEqual({ invocationRef: expect.any(String), conversationId: expect.any(String), idempotencyKey: 'order-4711-wifi', status: 'running' });
    expect(await client.result(accepted.invocationRef)).toMatchObject({ status: 'completed' });
    // Everything delivered is remembered: a later follow has nothing new.
    const later: InvocationEvent[] = [];
    for await (const event of client.events(accepted.invocationRef)) later.push(event);
    expect(later).toEqual([]);
  });

  it('resumes a stream the gateway destroyed mid-task: every event once, in order', async () => {
    const gw = await start();
    gw.simulator!.faults.latencyMs = 40;
    const streams: ServerResponse[] = [];
    gw.app.getHttpServer().on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (/^\/api\/tasks\/[^/]+\/events/.test(request.url ?? '')) streams.push(response);
    });
    const client = newClient(gatewayUrl(gw, ''));
    const invocation = client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
    const events: InvocationEvent[] = [];
    for await (const event of invocation) {
      events.push(event);
      // The gateway kills the stream's socket right after the first planned step.
      if (event.type === 'step_progress' && event.phase === 'planned' && streams.length === 1) streams[0].socket!.destroy();
    }
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)?.type).toBe('completed');
    expect(events.map((e) => e.eventId)).toEqual(await storedShownIds(gw, await taskIdOf(client, invocation.invocationRef)));
  });

  it('resumes a stream a TCP proxy cut mid-task: every event once, in order', async () => {
    const gw = await start();
    gw.simulator!.faults.latencyMs = 40;
    const proxy = await proxyTo(gw);
    const client = newClient(proxy.url);
    const invocation = client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' });
    const events: InvocationEvent[] = [];
    let cut = false;
    for await (const event of invocation) {
      events.push(event);
      if (!cut && event.type === 'step_progress') {
        cut = true;
        proxy.cutAll();
      }
    }
    expect(events.at(-1)?.type).toBe('completed');
    expect(events.map((e) => e.eventId)).toEqual(await storedShownIds(gw, await taskIdOf(client, invocation.invocationRef)));
    expect(proxy.treated.length).toBeGreaterThanOrEqual(3);
  });

  it('emits progress_uncertain with QUERY_LATER_DO_NOT_REINVOKE when the stream is cut and the gateway stays unreachable', async () => {
    const gw = await start();
    gw.simulator!.faults.latencyMs = 40;
    const proxy = await proxyTo(gw);
    const client = newClient(proxy.url);
    const invocation = client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', idempotencyKey: 'wifi-once' });
    const events: InvocationEvent[] = [];
    for await (const event of invocation) {
      events.push(event);
      if (event.type === 'accepted') {
        proxy.refusing = true;
        proxy.cutAll();
      }
    }
    expect(events.at(-1)).toEqual({
      invocationRef: invocation.invocationRef,
      conversationId: invocation.conversationId,
      type: 'progress_uncertain',
      hint: 'QUERY_LATER_DO_NOT_REINVOKE',
      idempotencyKey: 'wifi-once',
      cause: expect.stringMatching(/could not be reached/),
    });
    // Once the gateway is reachable again, the app queries (it does not invoke again) and follows to the end.
    proxy.refusing = false;
    const rest: InvocationEvent[] = [];
    for await (const event of client.events(invocation.invocationRef)) rest.push(event);
    expect(rest.at(-1)?.type).toBe('completed');
    const seen = [...events.slice(0, -1), ...rest].map((e) => e.eventId);
    expect(seen).toEqual(await storedShownIds(gw, await taskIdOf(client, invocation.invocationRef)));
  });

  it('creates exactly one task when the gateway is unreachable, then loses its answer, then is back', async () => {
    const gw = await start();
    const proxy = await proxyTo(gw);
    // First attempt refused, second reaches the gateway but its answer is lost, third gets the (replayed) answer.
    proxy.plan.push('refuse', 'swallow-response');
    const client = newClient(proxy.url);
    const result = await client.invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'flaky-network' });
    expect(result.status).toBe('completed');
    expect(proxy.treated.slice(0, 3)).toEqual(['refuse', 'swallow-response', 'forward']);
    expect(await tasksOf(gw, 'flaky-network')).toHaveLength(1);
  });

  it('emits progress_uncertain with RESEND_WITH_SAME_IDEMPOTENCY_KEY when creation is never acknowledged; re-sending creates one task', async () => {
    const gw = await start();
    const proxy = await proxyTo(gw);
    proxy.plan.push('swallow-response', 'refuse', 'refuse', 'refuse');
    const client = newClient(proxy.url);
    const events: InvocationEvent[] = [];
    for await (const event of client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'resend', idempotencyKey: 'wifi-resend' })) events.push(event);
    expect(events).toEqual([expect.objectContaining({ type: 'progress_uncertain', hint: 'RESEND_WITH_SAME_IDEMPOTENCY_KEY', idempotencyKey: 'wifi-resend' })]);
    const again = await client.invoke({ mode: 'BLOCKING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'resend', idempotencyKey: 'wifi-resend' });
    expect(again.status).toBe('completed');
    expect(await tasksOf(gw, 'resend')).toHaveLength(1);
  });

  it('surfaces the same key with different content as a typed 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    await client.invoke({ mode: 'ASYNC', goal: 'Turn on Wi-Fi', deviceId: 'sim-1', conversationId: 'c-422', idempotencyKey: 'key-422' });
    const error = await client.invoke({ mode: 'ASYNC', goal: 'Turn off Wi-Fi', deviceId: 'sim-1', conversationId: 'c-422', idempotencyKey: 'key-422' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MobileClawClientError);
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422, retryable: false, idempotencyKey: 'key-422' });
    expect(await tasksOf(gw, 'c-422')).toHaveLength(1);
  });

  it('STREAMING approval: input_required, approve(), the stream goes on to completed', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const invocation = client.invoke({ mode: 'STREAMING', goal: "send 'hi there' to Nina", deviceId: 'sim-1' });
    const types: string[] = [];
    for await (const event of invocation) {
      types.push(event.type);
      if (event.type === 'input_required') {
        expect(event.pendingAction).toMatchObject({ stepIndex: expect.any(Number), command: { command: expect.any(String) }, reason: expect.any(String) });
        expect(event.question).toMatch(/^Approve step \d+: /);
        expect(await client.approve(invocation.invocationRef, true)).toMatchObject({ status: 'running' });
      }
    }
    expect(types).toContain('input_required');
    expect(types.at(-1)).toBe('completed');
    expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([expect.objectContaining({ from: 'me', text: 'hi there' })]);
  });

  it('BLOCKING approval: the result waits for input; after approve(), result() gives the end', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const waiting = await client.invoke({ mode: 'BLOCKING', goal: "send 'hi there' to Nina", deviceId: 'sim-1' });
    expect(waiting).toMatchObject({ status: 'input_required', pendingAction: { command: { command: expect.any(String) }, reason: expect.any(String) } });
    await client.approve(waiting.invocationRef, true);
    expect(await client.result(waiting.invocationRef)).toMatchObject({ status: 'completed' });
    expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([expect.objectContaining({ from: 'me', text: 'hi there' })]);
  });

  it('BLOCKING approval denied: the task is canceled with APPROVAL_DENIED', async () => {
    const gw = await start();
    const client = newClient(gatewayUrl(gw, ''));
    const waiting = await client.invoke({ mode: 'BLOCKING', goal: "send 'hi there' to Nina", deviceId: 'sim-1' });
    expect(await client.approve(waiting.invocationRef, false)).toMatchObject({ status: 'canceled', error: { code: 'APPROVAL_DENIED' } });
    expect(await client.result(waiting.invocationRef)).toMatchObject({ status: 'canceled', error: { code: 'APPROVAL_DENIED' } });
  });
});
