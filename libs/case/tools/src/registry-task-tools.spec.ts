import { toolSuccess, type TaskToolCallOptions } from '@mobileclaw/domain';
import { RegistryTaskTools } from './registry-task-tools';
import { FakeToolSource } from './testing/fake-tool-source';
import { ToolRegistry } from './tool-registry';

function options(overrides: Partial<TaskToolCallOptions> = {}): TaskToolCallOptions {
  return { toolCallId: 'task-1:0', signal: new AbortController().signal, deadlineMs: 5000, ...overrides };
}

describe('RegistryTaskTools', () => {
  let phone: FakeToolSource;
  let gateway: FakeToolSource;
  let memory: FakeToolSource;
  let skills: FakeToolSource;
  let erp: FakeToolSource;
  let agent: FakeToolSource;
  let registry: ToolRegistry;
  let tools: RegistryTaskTools;

  beforeEach(() => {
    phone = new FakeToolSource('native', 'phone').with(['phone_click', { kind: 'ACTION' }]);
    gateway = new FakeToolSource('native', 'gateway').with('list_devices');
    memory = new FakeToolSource('native', 'memory').with('memory_search', ['memory_store', { kind: 'ACTION' }]);
    skills = new FakeToolSource('skills', 'workspace').with(['book_table', { eligibility: { eligible: false, missing: ['env:BOOKING_KEY'] } }]);
    erp = new FakeToolSource('catalog', 'erp').with(['refund_order', { kind: 'ACTION' }], ['invoice_get', { available: false }], 'secret');
    agent = new FakeToolSource('agent', 'weather').with('lookup_weather');
    registry = new ToolRegistry([phone, gateway, memory, skills, erp, agent], {
      policies: {
        defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] },
        byCaller: {
          planner: {
            allow: ['phone_click', 'list_devices', 'book_table', 'refund_order', 'invoice_get', 'lookup_weather'],
            allowSources: ['native:memory'],
            allowActionSourcesWithoutApproval: ['native:memory'],
          },
        },
      },
    });
    tools = new RegistryTaskTools(registry);
  });

  afterEach(() => registry.close());

  it("lists what the planner caller may call, the phone-driving native tools left out, with eligibility, availability and approval", async () => {
    expect(await tools.list()).toEqual([
      {
        name: 'book_table',
        description: 'book_table of skills:workspace',
        inputSchema: { type: 'object', properties: {} },
        kind: 'OBSERVATION',
        mode: 'SKILL',
        source: 'skills:workspace',
        eligibility: { eligible: false, missing: ['env:BOOKING_KEY'] },
        available: true,
        needsApproval: false,
      },
      expect.objectContaining({ name: 'invoice_get', source: 'catalog:erp', available: false, needsApproval: false }),
      expect.objectContaining({ name: 'lookup_weather', mode: 'AGENT_SESSION', source: 'agent:weather' }),
      expect.objectContaining({ name: 'memory_search', kind: 'OBSERVATION', mode: 'NATIVE', source: 'native:memory', needsApproval: false }),
      expect.objectContaining({ name: 'memory_store', kind: 'ACTION', mode: 'NATIVE', source: 'native:memory', needsApproval: false }),
      expect.objectContaining({ name: 'refund_order', kind: 'ACTION', mode: 'REMOTE_PROXY', needsApproval: true }),
    ]);
  });

  it('calls as the planner with the task’s toolCallId: once per id, verified: false kept on the replay too', async () => {
    agent.answer = async () => ({ ...toolSuccess('Probably sunny.'), verified: false });
    const first = await tools.invoke('lookup_weather', {}, options());
    expect(first).toEqual({ ok: true, content: 'Probably sunny.', text: 'Probably sunny.', verified: false });
    expect(await tools.invoke('lookup_weather', {}, options())).toEqual(first);
    expect(agent.calls).toHaveLength(1);
    expect(agent.calls[0].context).toMatchObject({ toolCallId: 'task-1:0', deadlineMs: 5000 });
  });

  it('passes the task’s memory scope to the source, and none when the task gives none', async () => {
    expect(await tools.invoke('memory_store', {}, options({ scope: 'context:chat-7' }))).toMatchObject({ ok: true });
    await tools.invoke('lookup_weather', {}, options({ toolCallId: 'task-1:1' }));
    expect(memory.calls.map((call) => call.context.scope)).toEqual(['context:chat-7']);
    expect(agent.calls[0].context).not.toHaveProperty('scope');
  });

  it('refuses an unapproved ACTION, a phone-driving native tool and a tool the planner may not call', async () => {
    expect(await tools.invoke('refund_order', {}, options())).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
    expect(await tools.invoke('refund_order', {}, options({ toolCallId: 'task-1:1', approved: true }))).toMatchObject({ ok: true, content: { tool: 'refund_order', args: {} } });
    expect(await tools.invoke('phone_click', {}, options({ toolCallId: 'task-1:2' }))).toEqual({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: 'no tool phone_click for this caller', retryable: false },
    });
    expect(await tools.invoke('list_devices', {}, options({ toolCallId: 'task-1:4' }))).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    expect(gateway.calls).toEqual([]);
    expect(await tools.invoke('secret', {}, options({ toolCallId: 'task-1:3' }))).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    expect(phone.calls).toEqual([]);
    expect(erp.calls.map((call) => call.name)).toEqual(['refund_order']);
  });
});
