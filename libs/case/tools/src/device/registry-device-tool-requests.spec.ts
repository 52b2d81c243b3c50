import { toolEligibility, toolSuccess } from '@mobileclaw/domain';
import { FakeToolSource } from '../testing/fake-tool-source';
import { ToolRegistry } from '../tool-registry';
import type { ToolPolicies } from '../tool-policy';
import { RegistryDeviceToolRequests, phoneToolCaller } from './registry-device-tool-requests';

/** The gateway's default policies for phones and everyone else (docs: phones never reach native tools). */
const POLICIES: ToolPolicies = {
  defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] },
  byCaller: { 'phone:*': { allow: [], allowSources: ['skills:*', 'mcp:*', 'catalog:*', 'agent:*'] } },
};

const context = (requestId: string, extra: { toolCallId?: string } = {}) => ({ requestId, signal: new AbortController().signal, deadlineMs: 5000, ...extra });

describe('RegistryDeviceToolRequests', () => {
  let native: FakeToolSource;
  let skills: FakeToolSource;
  let erp: FakeToolSource;
  let registry: ToolRegistry;
  let requests: RegistryDeviceToolRequests;

  beforeEach(() => {
    native = new FakeToolSource('native', 'phone').with(['phone_click', { kind: 'ACTION' }]);
    skills = new FakeToolSource('skills', 'workspace').with(['book_table', { kind: 'ACTION', eligibility: toolEligibility(['env:BOOKING_KEY']) }]);
    erp = new FakeToolSource('mcp', 'erp').with(
      ['stock', { available: false }],
      ['weather', { inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, description: 'Current weather' }],
    );
    registry = new ToolRegistry([native, skills, erp], { policies: POLICIES });
    requests = new RegistryDeviceToolRequests(registry);
  });

  afterEach(() => registry.close());

  it('names each phone as the caller phone:<deviceId>', () => {
    expect(phoneToolCaller('pixel-7')).toBe('phone:pixel-7');
  });

  it('lists what the phone’s policy allows, flattened for the wire, never a native tool', async () => {
    expect(await requests.catalog('pixel-7')).toEqual([
      {
        name: 'book_table',
        description: 'book_table of skills:workspace',
        inputSchema: { type: 'object', properties: {} },
        kind: 'ACTION',
        mode: 'SKILL',
        eligible: false,
        missing: ['env:BOOKING_KEY'],
        available: true,
        needsApproval: true,
      },
      { name: 'stock', description: 'stock of mcp:erp', inputSchema: { type: 'object', properties: {} }, kind: 'OBSERVATION', mode: 'REMOTE_PROXY', eligible: true, missing: [], available: false, needsApproval: false },
      {
        name: 'weather',
        description: 'Current weather',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        kind: 'OBSERVATION',
        mode: 'REMOTE_PROXY',
        eligible: true,
        missing: [],
        available: true,
        needsApproval: false,
      },
    ]);
    // The same registry gives other callers the native tools.
    expect((await registry.listFor('rest')).map((entry) => entry.exposedName)).toContain('phone_click');
  });

  it('calls a tool as the phone and returns its result without the registry’s bookkeeping', async () => {
    erp.answer = async () => ({ ...toolSuccess({ temp: 21 }), verified: false });
    const result = await requests.invoke('pixel-7', 'weather', { city: 'Lyon' }, context('p-1', { toolCallId: 'call-1' }));
    expect(result).toEqual({ ok: true, content: { temp: 21 }, text: '{"temp":21}', verified: false });
    expect(erp.calls.map((call) => [call.name, call.args, call.context.toolCallId, call.context.deadlineMs])).toEqual([['weather', { city: 'Lyon' }, 'call-1', 5000]]);
    expect(await requests.invoke('pixel-7', 'weather', { city: 'Lyon' }, context('p-2'))).toEqual({ ok: true, content: { temp: 21 }, text: '{"temp":21}', verified: false });
    erp.answer = async () => toolSuccess('sunny');
    expect(await requests.invoke('pixel-7', 'weather', { city: 'Nice' }, context('p-3'))).toStrictEqual({ ok: true, content: 'sunny', text: 'sunny' });
  });

  it('runs a re-sent request (same request id, no toolCallId) once and answers the recorded result', async () => {
    const first = await requests.invoke('pixel-7', 'weather', { city: 'Lyon' }, context('p-9'));
    const again = await requests.invoke('pixel-7', 'weather', { city: 'Lyon' }, context('p-9'));
    expect(again).toEqual(first);
    expect(erp.calls.map((call) => call.context.toolCallId)).toEqual(['phone:pixel-7:p-9']);
    // Another phone's request of the same id is its own call.
    await requests.invoke('pixel-8', 'weather', { city: 'Lyon' }, context('p-9'));
    expect(erp.calls.map((call) => call.context.toolCallId)).toEqual(['phone:pixel-7:p-9', 'phone:pixel-8:p-9']);
  });

  it('answers what the phone may not call TOOL_NOT_FOUND and an unapproved action APPROVAL_REQUIRED, running neither', async () => {
    expect(await requests.invoke('pixel-7', 'phone_click', { deviceId: 'pixel-8', x: 1, y: 2 }, context('p-4'))).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND', retryable: false } });
    expect(await requests.invoke('pixel-7', 'book_table', {}, context('p-5'))).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
    expect(await requests.invoke('pixel-7', 'weather', {}, context('p-6'))).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    expect(await requests.invoke('pixel-7', 'stock', {}, context('p-7'))).toEqual({
      ok: false,
      error: { code: 'TOOL_UNAVAILABLE', message: 'tool stock (mcp:erp/stock) is unavailable right now', retryable: true },
    });
    expect([native.calls, skills.calls, erp.calls]).toEqual([[], [], []]);
  });

  it('never lists or calls a phone-driving native tool for a phone, even under a policy that allows everything', async () => {
    const gateway = new FakeToolSource('native', 'gateway').with('list_devices');
    const open = new ToolRegistry([native, gateway, skills, erp], { policies: { defaultPolicy: { allow: '*', allowActionsWithoutApproval: '*' } } });
    const phones = new RegistryDeviceToolRequests(open);
    expect((await phones.catalog('pixel-7')).map((entry) => entry.name)).toEqual(['book_table', 'stock', 'weather']);
    expect(await phones.invoke('pixel-7', 'phone_click', { deviceId: 'pixel-8', x: 1, y: 2 }, context('p-8'))).toEqual({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: 'no tool phone_click for this caller', retryable: false },
    });
    expect(await phones.invoke('pixel-7', 'list_devices', {}, context('p-10'))).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    expect([native.calls, gateway.calls]).toEqual([[], []]);
    open.close();
  });

  it('lists and calls the memory tools when the policy allows them, in the phone’s own memory scope', async () => {
    const memory = new FakeToolSource('native', 'memory').with('memory_search', ['memory_store', { kind: 'ACTION' }]);
    const policies: ToolPolicies = { byCaller: { 'phone:*': { allow: [], allowSources: ['native:memory'], allowActionSourcesWithoutApproval: ['native:memory'] } } };
    const withMemory = new ToolRegistry([native, memory], { policies });
    const phones = new RegistryDeviceToolRequests(withMemory);
    expect((await phones.catalog('pixel-7')).map((entry) => [entry.name, entry.kind, entry.mode, entry.needsApproval])).toEqual([
      ['memory_search', 'OBSERVATION', 'NATIVE', false],
      ['memory_store', 'ACTION', 'NATIVE', false],
    ]);
    expect(await phones.invoke('pixel-7', 'memory_store', {}, context('p-11'))).toMatchObject({ ok: true });
    expect(await phones.invoke('pixel-8', 'memory_search', {}, context('p-11'))).toMatchObject({ ok: true });
    expect(memory.calls.map((call) => [call.name, call.context.scope])).toEqual([
      ['memory_store', 'device:pixel-7'],
      ['memory_search', 'device:pixel-8'],
    ]);
    withMemory.close();
  });
});
