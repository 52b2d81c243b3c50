import type { MemoryHit, PlanDecision, PlannerHistoryEntry, PlanningContext, StepResult, TaskToolSpec, UiElement } from '@mobileclaw/domain';
import { memoryAliases, resolveAliases } from './memory-aliases';
import { parseMemoryStatement } from './memory-statement';
import { parseRememberGoal } from './remember-goal';
import { RuleBasedPlanner } from './rule-based-planner';

const LAUNCHER: UiElement[] = [{ index: 0, nodeId: 'n0', type: 'TextView', text: 'Messages', clickable: true, bounds: [0, 147, 270, 399], center: [135, 273] }];
const memoryStore: TaskToolSpec = {
  name: 'memory_store',
  description: 'Remembers one fact.',
  inputSchema: { type: 'object' },
  kind: 'ACTION',
  mode: 'NATIVE',
  source: 'native:memory',
  eligibility: { eligible: true, missing: [] },
  available: true,
  needsApproval: false,
};

function context(goal: string, history: PlannerHistoryEntry[] = [], extra: Partial<PlanningContext> = {}): PlanningContext {
  return {
    taskId: 'task-1',
    deviceId: 'sim-1',
    goal,
    stepIndex: history.length,
    maxSteps: 25,
    observation: { screen: { width: 1080, height: 2400 }, elements: LAUNCHER, package: 'com.android.launcher3' },
    history,
    gatewayTools: [memoryStore],
    signal: new AbortController().signal,
    ...extra,
  };
}

function hit(text: string, score = 0.5, ageDays = 1): MemoryHit {
  return { layer: 'daily', text, score, ageDays, createdAt: '2026-12-01T00:00:00.000Z', parts: { lexical: score, semantic: null, relevance: score, decay: 1 } };
}

function stored(decision: PlanDecision, result: StepResult): PlannerHistoryEntry {
  if (decision.type !== 'tool_call') throw new Error(`expected a tool_call, got ${decision.type}`);
  return { index: 0, decision: { ...decision, toolCallId: 'task-1:0', gatewayTool: { source: 'native:memory', kind: 'ACTION', mode: 'NATIVE' } }, result };
}

const plan = (ctx: PlanningContext) => new RuleBasedPlanner().plan(ctx);

describe('memory statements', () => {
  it('reads "<subject> is <value>" in English and Chinese, with or without "my", and nothing else', () => {
    expect(parseMemoryStatement('mom is Alice')).toEqual({ subject: 'mom', value: 'Alice', my: false });
    expect(parseMemoryStatement('My office Wi-Fi is ACME-5G.')).toEqual({ subject: 'office Wi-Fi', value: 'ACME-5G', my: true });
    expect(parseMemoryStatement('remember that my best friend is Zoë Ng')).toEqual({ subject: 'best friend', value: 'Zoë Ng', my: true });
    expect(parseMemoryStatement('妈妈是Alice')).toEqual({ subject: '妈妈', value: 'Alice', my: false });
    expect(parseMemoryStatement('我的办公室Wi-Fi是ACME-5G')).toEqual({ subject: '办公室Wi-Fi', value: 'ACME-5G', my: true });
    expect(parseMemoryStatement('my email is alice@example.com')).toEqual({ subject: 'email', value: 'alice@example.com', my: true });
    for (const text of ['what is the time?', 'the plan for the next big meeting day is Monday', 'mom is Alice, and dad is Bob', 'the code is 12. Then call me', 'send hi to mom', 'Alice']) {
      expect(parseMemoryStatement(text)).toBeUndefined();
    }
  });
});

describe('aliases from memory', () => {
  it('maps each alias, case-insensitively, to the name of its best scored, then most recent, memory', () => {
    const aliases = memoryAliases([hit('mom is Eve', 0.4, 1), hit('Mom is Alice', 0.9, 30), hit('the weather is nice today, really', 0.95), hit('boss is Bob', 0.6, 5), hit('boss is Carol', 0.6, 2), hit('妈妈是Alice')]);
    expect([...aliases.entries()]).toEqual([
      ['mom', { alias: 'Mom', name: 'Alice' }],
      ['boss', { alias: 'boss', name: 'Carol' }],
      ['妈妈', { alias: '妈妈', name: 'Alice' }],
    ]);
    expect(memoryAliases(undefined).size).toBe(0);
  });

  it('resolves a recipient, a tap target and an app to open when the goal names the alias whole, never quoted text or a dialog verb', () => {
    const aliases = memoryAliases([hit('mom is Alice'), hit('妈妈是Alice'), hit('ok is Nope')]);
    expect(resolveAliases([{ kind: 'send_message', recipient: 'My Mom', text: 'mom, hi' }], aliases)).toEqual({
      intents: [{ kind: 'send_message', recipient: 'Alice', text: 'mom, hi' }],
      used: [{ alias: 'mom', name: 'Alice' }],
    });
    expect(resolveAliases([{ kind: 'send_message', recipient: '我妈妈', text: '你好' }], aliases).intents).toEqual([{ kind: 'send_message', recipient: 'Alice', text: '你好' }]);
    expect(resolveAliases([{ kind: 'tap', target: 'mom' }, { kind: 'open', name: 'mom' }], aliases).intents).toEqual([
      { kind: 'tap', target: 'Alice' },
      { kind: 'open', name: 'Alice' },
    ]);
    const dialog = { kind: 'tap' as const, target: 'OK', names: ['OK'], whole: true as const };
    expect(resolveAliases([dialog, { kind: 'send_message', recipient: 'mommy', text: 'x' }], aliases)).toEqual({ intents: [dialog, { kind: 'send_message', recipient: 'mommy', text: 'x' }], used: [] });
  });
});

describe('"remember …" goals in the rule-based planner', () => {
  it('reads the English and Chinese forms, with contact or fact as fits', () => {
    expect(parseRememberGoal('remember that mom is Alice')).toEqual({ text: 'mom is Alice', category: 'contact' });
    expect(parseRememberGoal('Remember my office Wi-Fi is ACME-5G.')).toEqual({ text: 'my office Wi-Fi is ACME-5G', category: 'fact' });
    expect(parseRememberGoal('please remember: I park on level 3')).toEqual({ text: 'I park on level 3', category: 'fact' });
    expect(parseRememberGoal('记住妈妈是Alice')).toEqual({ text: '妈妈是Alice', category: 'contact' });
    expect(parseRememberGoal('记住我的办公室Wi-Fi是ACME-5G')).toEqual({ text: '我的办公室Wi-Fi是ACME-5G', category: 'fact' });
    expect(parseRememberGoal('remember to buy milk')).toBeUndefined();
    expect(parseRememberGoal('send hi to mom')).toBeUndefined();
  });

  it('stores the fact with memory_store, priority 6, then is done once the tool stored it', async () => {
    const call = await plan(context('remember that mom is Alice'));
    expect(call).toEqual({ type: 'tool_call', name: 'memory_store', arguments: { text: 'mom is Alice', category: 'contact', priority: 6 }, reasoning: 'The goal asks to remember "mom is Alice".' });
    const ok = stored(call, { status: 'success', output: { stored: [{ id: 'mem_1', layer: 'daily', source: { file: 'device/sim-1/2026-12-02.md', line: 3 } }] }, message: 'Remembered.' });
    expect(await plan(context('remember that mom is Alice', [ok]))).toEqual({ type: 'done', summary: 'Remembered "mom is Alice".', reasoning: 'memory_store stored it.' });
    expect(await plan(context('记住我的办公室Wi-Fi是ACME-5G'))).toMatchObject({ type: 'tool_call', name: 'memory_store', arguments: { text: '我的办公室Wi-Fi是ACME-5G', category: 'fact', priority: 6 } });
  });

  it('fails with the reason when the store failed, stored nothing, or there is no memory_store tool', async () => {
    const call = await plan(context('remember my office Wi-Fi is ACME-5G'));
    const failed = stored(call, { status: 'error', errorCode: 'STORAGE_ERROR', message: 'disk full' });
    expect(await plan(context('remember my office Wi-Fi is ACME-5G', [failed]))).toEqual({
      type: 'fail',
      reason: 'Could not remember "my office Wi-Fi is ACME-5G": memory_store answered error STORAGE_ERROR: disk full.',
      reasoning: 'The memory did not store it.',
    });
    const empty = stored(call, { status: 'success', output: { stored: [] } });
    expect(await plan(context('remember my office Wi-Fi is ACME-5G', [empty]))).toMatchObject({ type: 'fail', reason: 'Could not remember "my office Wi-Fi is ACME-5G": memory_store answered without a stored record.' });
    expect(await plan(context('remember that mom is Alice', [], { gatewayTools: undefined }))).toEqual({
      type: 'fail',
      reason: 'Cannot remember "mom is Alice": the gateway offers no memory_store tool to this task (its memory is off, or the planner may not call it).',
      reasoning: 'The goal asks to remember something and there is no memory_store tool.',
    });
  });

  it('plans a goal naming an alias with the name the memory gives, and says so in the reasoning', async () => {
    const decision = await plan(context("send 'hi' to mom", [], { memories: [hit('mom is Alice')] }));
    expect(decision).toMatchObject({ type: 'action', action: { command: 'open' } });
    expect(decision.reasoning).toMatch(/ — mom is Alice \(memory\)$/);
    expect((await plan(context("send 'hi' to mom"))).reasoning).not.toContain('(memory)');
  });
});
