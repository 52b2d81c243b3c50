import type { Client } from '@modelcontextprotocol/client';
import type { RunningGateway } from '@mobileclaw/gateway';
import type { ActionFrame } from '@mobileclaw/protocol';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways } from '../support/test-gateways';
import { connectClient, endClient, elementLine, textOf, type Era, type Json } from './mcp-client';

const gateways = testGateways('mobileclaw-mcp-task-');

/** GET /api/tasks/:id (no token configured). */
async function restTask(gw: RunningGateway, taskId: string): Promise<Json> {
  const res = await fetch(gatewayUrl(gw, `/api/tasks/${taskId}`));
  expect(res.status).toBe(200);
  return res.json();
}

/** The single task the gateway knows (the one an MCP call started). */
async function onlyTask(gw: RunningGateway): Promise<Json> {
  const listed = (await (await fetch(gatewayUrl(gw, '/api/tasks'))).json()) as Json;
  const items = listed.tasks as Json[];
  expect(items).toHaveLength(1);
  return items[0];
}

/** Answers every approval question the gateway asks with `answer`, recording the questions. */
function answerApprovals(client: Client, answer: { action: 'accept' | 'decline' | 'cancel'; content?: { approve: boolean } }): Json[] {
  const asked: Json[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return answer;
  });
  return asked;
}

/** Puts the phone's browser on a page whose title is a sensitive action ("Pay now"). */
function showPayPage(gw: RunningGateway): void {
  gw.simulator!.ui.state.browser = { url: 'https://shop.example/checkout', title: 'Pay now' };
  gw.simulator!.ui.open('com.android.chrome');
}

/** The frame and the index of the "Pay now" element, from get_screen. */
async function payElement(client: Client): Promise<{ frameId: string; element: number }> {
  const screen: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
  return { frameId: screen.structuredContent.frameId, element: elementLine(textOf(screen), 'Pay now').index };
}

function clicks(gw: RunningGateway): ActionFrame[] {
  const seen: ActionFrame[] = [];
  gw.simulator!.on('action', (a) => {
    if (a.command === 'click') seen.push(a);
  });
  return seen;
}

describe.each<Era>(['modern', 'legacy'])('run_task and approvals (%s revision)', (era) => {
  it('runs a goal with the rule planner, reporting one progress line per step', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const progress: { progress: number; message?: string }[] = [];
    const result: Json = await client.callTool({ name: 'run_task', arguments: { goal: 'open Settings and turn on Wi-Fi' } }, { onprogress: (p) => progress.push(p) });
    expect(result.isError).toBeFalsy();
    const facts = result.structuredContent;
    expect(facts).toMatchObject({ status: 'completed', deviceId: 'sim-1', taskId: expect.any(String), stepCount: expect.any(Number) });
    expect(textOf(result)).toBe(`Completed in ${facts.stepCount} step(s): ${facts.summary} (task ${facts.taskId})`);
    expect(gw.simulator!.ui.state.wifi).toBe(true);

    const lines = progress.map((p) => p.message!);
    expect(lines.every((l) => typeof l === 'string' && l.length > 0 && !l.includes('\n'))).toBe(true);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(facts.stepCount).toBe(3);
    expect(lines).toEqual([
      'started',
      'step 1: open com.android.settings',
      'step 1: success',
      expect.stringMatching(/^step 2: click \(\d+,\d+\)$/),
      'step 2: success',
      'step 3: goal reached — Wi-Fi is on.',
    ]);
    expect((await restTask(gw, facts.taskId)).status).toBe('completed');
    await endClient(client);
  });

  it('cancels the task when the request is cancelled', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    // The phone takes commands but never answers: the task stays on its first step until cancelled.
    gw.simulator!.faults.neverReply = true;
    const abort = new AbortController();
    const started = new Promise<void>((resolve) => {
      void client
        .callTool(
          { name: 'run_task', arguments: { goal: 'open Settings and turn on Wi-Fi' } },
          {
            signal: abort.signal,
            onprogress: (p) => {
              if (p.message === 'started') resolve();
            },
          },
        )
        .catch(() => undefined);
    });
    await started;
    const { taskId } = await onlyTask(gw);
    const events = await SseClient.open(gatewayUrl(gw, `/api/tasks/${taskId}/events`));
    abort.abort();
    const canceled = await events.next((e) => e.event === 'task.canceled');
    expect(JSON.parse(canceled.data)).toMatchObject({ taskId, type: 'task.canceled' });
    expect(await restTask(gw, taskId)).toMatchObject({ taskId, status: 'canceled' });
    events.close();
    gw.simulator!.faults.neverReply = false;
    await endClient(client);
    // On abort the SDK client opens a connection for its cancellation with the signal already
    // aborted, and sends nothing on it; the HTTP server's close would wait for that connection
    // until the client's keep-alive timeout (4 s). Nothing else is open by now.
    gw.app.getHttpServer().closeAllConnections();
  });

  it('answers APPROVAL_REQUIRED to a sensitive tap from a client that cannot be asked, sending nothing', async () => {
    const gw = await gateways.start();
    showPayPage(gw);
    const client = await connectClient(gw, era);
    const target = await payElement(client);
    const sent = clicks(gw);
    const refused: Json = await client.callTool({ name: 'tap', arguments: target });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ code: 'APPROVAL_REQUIRED', deviceId: 'sim-1', retryable: false });
    expect(textOf(refused)).toMatch(/^APPROVAL_REQUIRED: "Pay now" looks like a sensitive action/);
    expect(sent).toEqual([]);
    await endClient(client);
  });

  it('asks a client that declares elicitation, and taps once it approves', async () => {
    const gw = await gateways.start();
    showPayPage(gw);
    const client = await connectClient(gw, era, { elicitation: true });
    const asked = answerApprovals(client, { action: 'accept', content: { approve: true } });
    const target = await payElement(client);
    const sent = clicks(gw);
    const tapped: Json = await client.callTool({ name: 'tap', arguments: target });
    expect(tapped.isError).toBeFalsy();
    expect(tapped.structuredContent.element).toMatchObject({ index: target.element, desc: 'Pay now' });
    // The element is named by its text, or its description when it has no text.
    expect(textOf(tapped)).toMatch(new RegExp(`^Did a tap on \\[${target.element}\\] \\w+ "Pay now" of sim-1 at \\(\\d+,\\d+\\) in screen px\\.$`));
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toMatch(/"Pay now" looks like a sensitive action.*Approve this tap on sim-1\?$/);
    expect(asked[0].requestedSchema).toEqual({ type: 'object', properties: { approve: { type: 'boolean', title: 'Approve' } }, required: ['approve'] });
    expect(sent).toEqual([expect.objectContaining({ x: tapped.structuredContent.point[0], y: tapped.structuredContent.point[1] })]);
    await endClient(client);
  });

  it.each([
    ['declines', { action: 'decline' as const }],
    ['answers approve: false', { action: 'accept' as const, content: { approve: false } }],
  ])('answers APPROVAL_DENIED, sending nothing, when the user %s', async (_label, answer) => {
    const gw = await gateways.start();
    showPayPage(gw);
    const client = await connectClient(gw, era, { elicitation: true });
    const asked = answerApprovals(client, answer);
    const target = await payElement(client);
    const sent = clicks(gw);
    const denied: Json = await client.callTool({ name: 'tap', arguments: target });
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent.error.code).toBe('APPROVAL_DENIED');
    expect(textOf(denied)).toBe('APPROVAL_DENIED: the user declined the tap; nothing was sent to sim-1.');
    expect(asked).toHaveLength(1);
    expect(sent).toEqual([]);
    await endClient(client);
  });

  it('ignores an approval answer the gateway did not ask for (no sealed question), sending nothing', async () => {
    const gw = await gateways.start();
    showPayPage(gw);
    const client = await connectClient(gw, era);
    const target = await payElement(client);
    const sent = clicks(gw);
    // inputResponses travel in the request params (2026-07-28); the SDK's type has no room for them.
    const request = { name: 'tap', arguments: target, inputResponses: { approval: { action: 'accept', content: { approve: true } } } };
    const unsolicited: Json = await client.callTool(request);
    expect(unsolicited.structuredContent.error.code).toBe('APPROVAL_REQUIRED');
    expect(sent).toEqual([]);
    await endClient(client);
  });

  it('asks for approval during run_task and finishes the task once approved', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era, { elicitation: true });
    const asked = answerApprovals(client, { action: 'accept', content: { approve: true } });
    const progress: string[] = [];
    const result: Json = await client.callTool({ name: 'run_task', arguments: { goal: "send 'hi there' to Nina" } }, { onprogress: (p) => progress.push(p.message!) });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toMatch(/^The task on the phone wants to /);
    expect(progress).toContain('approved; resuming');
    // Each step is reported once, and the question asked once, in both revisions.
    expect(progress.filter((line) => line.startsWith('waiting for approval'))).toHaveLength(1);
    expect(progress.filter((line) => line === 'started')).toHaveLength(1);
    expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([expect.objectContaining({ from: 'me', text: 'hi there' })]);
    await endClient(client);
  });

  it('answers APPROVAL_REQUIRED from run_task to a client that cannot be asked; the task waits for approval elsewhere', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const result: Json = await client.callTool({ name: 'run_task', arguments: { goal: "send 'hi there' to Nina" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error.code).toBe('APPROVAL_REQUIRED');
    const { taskId } = await onlyTask(gw);
    expect(textOf(result)).toBe(
      `APPROVAL_REQUIRED: task ${taskId} waits for a human's approval (${(await restTask(gw, taskId)).pendingAction.reason}); ` +
        `approve or deny it with POST /api/tasks/${taskId}/approval {"approve": true|false} or on the live page. ` +
        `Ask the user to approve or deny it there, then read the resource mobileclaw://tasks/${taskId} to follow the task. ` +
        'Do not call run_task again for this goal: that would start a second task, queued behind this one.',
    );
    expect((await restTask(gw, taskId)).status).toBe('input_required');
    // run_task takes no approved argument: the call is refused, and no second task is queued.
    const retried: Json = await client.callTool({ name: 'run_task', arguments: { goal: "send 'hi there' to Nina", approved: true } });
    expect(retried.structuredContent.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'invalid arguments for run_task: approved: unknown argument; run_task takes deviceId, goal, maxSteps',
      retryable: false,
      fieldErrors: [{ field: 'approved', message: 'unknown argument; run_task takes deviceId, goal, maxSteps' }],
    });
    expect((await onlyTask(gw)).taskId).toBe(taskId);
    // The route the text names answers: the task goes on (here: denied, so it does not send).
    const denied = await fetch(gatewayUrl(gw, `/api/tasks/${taskId}/approval`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ approve: false }) });
    expect(denied.status).toBe(200);
    expect(((await denied.json()) as Json).status).not.toBe('input_required');
    await endClient(client);
  });
});
