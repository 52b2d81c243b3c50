/**
 * Order desk: a business system that gets phone work done through MobileClaw with the client SDK.
 *
 * It runs three tasks on the gateway's phone, one per invocation mode, and prints what happens:
 * 1. STREAMING — "Turn on Wi-Fi", every event as it arrives (an exhaustive switch over the events);
 * 2. BLOCKING  — "Turn off Wi-Fi", only the final result;
 * 3. ASYNC     — a goal that calls the desk's own OBSERVATION tool `lookup_order` (exposed to the
 *    conversation of order A-17), answered in the background; the desk asks for the state with `get`.
 *
 * Run it against `npm start` (http://127.0.0.1:3000; another gateway with MOBILECLAW_URL, its token
 * with MOBILECLAW_API_TOKEN): `npm run example:order-desk`. Exits 0 when every task completed, 1
 * otherwise (the SDK's error code is printed).
 */
import { assertNever, MobileClawClient, MobileClawClientError, type InvocationEvent, type InvocationState } from '@mobileclaw/client';

/** The desk's orders, as its own database would answer. */
const ORDERS: Record<string, { status: string; eta: string }> = {
  'A-17': { status: 'shipped', eta: '2026-12-03' },
};

const client = new MobileClawClient({
  baseUrl: process.env['MOBILECLAW_URL'] ?? 'http://127.0.0.1:3000',
  apiToken: process.env['MOBILECLAW_API_TOKEN'],
});

// Registering a tool exposes it to nobody; the policies below decide who may call it.
client.tools.register({
  name: 'lookup_order',
  description: 'Finds an order of the shop by its id: its status and delivery date.',
  inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
  kind: 'OBSERVATION',
  execute: (args) => {
    const orderId = args['orderId'] as string;
    const order = ORDERS[orderId];
    if (!order) throw new Error(`no order ${orderId}`);
    const result = { orderId, ...order };
    console.log(`  lookup_order ${JSON.stringify(args)} → ${JSON.stringify(result)}`);
    return result;
  },
});
client.setConversationToolPolicy('order-A-17', { allow: ['lookup_order'] });

/** One line per event: the `default` branch does not compile while an event type is unhandled. */
function describeEvent(event: InvocationEvent): string {
  switch (event.type) {
    case 'accepted':
      return 'accepted';
    case 'status_changed':
      return `status ${event.status}${event.queuePosition === undefined ? '' : ` (place ${event.queuePosition} in the phone's queue)`}`;
    case 'step_progress':
      return `step ${event.stepIndex} ${event.phase}: ${event.description}`;
    case 'input_required':
      return `needs approval: ${event.question}`;
    case 'tool_call_requires_confirmation':
      return `tool ${event.name} waits for approval`;
    case 'completed':
      return `completed: ${event.summary}`;
    case 'failed':
      return `failed: ${event.error.code} ${event.error.message}`;
    case 'canceled':
      return `canceled: ${event.reason}`;
    case 'progress_uncertain':
      return `progress uncertain (${event.hint}): ${event.cause}`;
    default:
      return assertNever(event);
  }
}

/** STREAMING: every event as it happens. True when the task completed. */
async function streaming(): Promise<boolean> {
  console.log('STREAMING: Turn on Wi-Fi');
  const invocation = client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', conversationId: 'desk-wifi' });
  let last: InvocationEvent | undefined;
  for await (const event of invocation) {
    console.log(`  ${describeEvent(event)}`);
    last = event;
    // The desk approves no sensitive phone action it did not plan for: denying cancels the task.
    if (event.type === 'input_required') await client.approve(invocation.invocationRef, false);
  }
  return last?.type === 'completed';
}

/** BLOCKING: the final result only. */
async function blocking(): Promise<boolean> {
  console.log('BLOCKING: Turn off Wi-Fi');
  const result = await client.invoke({ mode: 'BLOCKING', goal: 'Turn off Wi-Fi', conversationId: 'desk-wifi' });
  console.log(`  ${describeState(result)}`);
  return result.status === 'completed';
}

/** ASYNC: accepted at once; the tool call is answered in the background; the desk asks for the state later. */
async function async(): Promise<boolean> {
  const goal = 'call lookup_order with {"orderId":"A-17"} and then open Settings';
  console.log(`ASYNC: ${goal}`);
  const accepted = await client.invoke({ mode: 'ASYNC', goal, conversationId: 'order-A-17', tools: { allow: ['lookup_order'] } });
  console.log(`  accepted: ${accepted.status}`);
  let state = await client.get(accepted.invocationRef);
  while (state.status !== 'completed' && state.status !== 'failed' && state.status !== 'canceled' && state.status !== 'interrupted') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    state = await client.get(accepted.invocationRef);
  }
  console.log(`  get: ${describeState(state)}`);
  return state.status === 'completed';
}

function describeState(state: InvocationState): string {
  const detail = state.summary ?? state.error?.message ?? state.pendingAction?.reason ?? '';
  return `${state.status} after ${state.stepCount} steps${detail ? `: ${detail}` : ''}`;
}

async function main(): Promise<number> {
  try {
    const completed = [await streaming(), await blocking(), await async()];
    return completed.every(Boolean) ? 0 : 1;
  } catch (error) {
    if (!(error instanceof MobileClawClientError)) throw error;
    console.error(`${error.code}: ${error.message}`);
    return 1;
  } finally {
    client.close();
  }
}

void main().then((code) => (process.exitCode = code));
