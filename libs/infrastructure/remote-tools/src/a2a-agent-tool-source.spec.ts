import { firstValueFrom } from 'rxjs';
import { describeToolSourceContract } from '@mobileclaw/domain/testing';
import type { ToolInvocationContext } from '@mobileclaw/domain';
import { A2aAgentToolSource } from './a2a-agent-tool-source';
import { A2aToolAgent, TOOL_AGENT_SKILLS } from './testing/a2a-tool-agent';

const TOKEN = 'agent-secret-91b2';

function context(overrides: Partial<ToolInvocationContext> = {}): ToolInvocationContext {
  return { toolCallId: 'task-9:3', signal: new AbortController().signal, deadlineMs: 10_000, ...overrides };
}

describe('A2aAgentToolSource (a local @a2a-js/sdk agent)', () => {
  let agent: A2aToolAgent;
  let source: A2aAgentToolSource;

  beforeEach(async () => {
    agent = await A2aToolAgent.start(TOKEN);
    source = new A2aAgentToolSource({
      id: 'weather',
      agentUrl: agent.baseUrl,
      token: TOKEN,
      refreshIntervalMs: 0,
      inputSchemas: { lookup_weather: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    });
  });

  afterEach(async () => {
    source.close();
    await agent.close();
  });

  it('lists the agent card’s skills as AGENT_SESSION tools: declared schema or any object, OBSERVATION when tagged read-only', async () => {
    const tools = await source.list();
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_AGENT_SKILLS]);
    expect(tools[0]).toEqual({
      name: 'lookup_weather',
      description: 'Test skill lookup_weather.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      kind: 'OBSERVATION',
      mode: 'AGENT_SESSION',
      source: { kind: 'agent', id: 'weather' },
      location: agent.baseUrl + '/',
      eligibility: { eligible: true, missing: [] },
      available: true,
    });
    expect(tools[1]).toMatchObject({ name: 'history_only', kind: 'ACTION', inputSchema: { type: 'object', properties: {}, additionalProperties: true } });
  });

  it('delegates with an explicit instruction, the JSON arguments and the call id, and verifies a call the agent reports as an artifact', async () => {
    const result = await source.invoke('lookup_weather', { city: 'Oslo' }, context());
    const [delegation] = agent.received;
    expect(delegation).toMatchObject({ tool: 'lookup_weather', args: { city: 'Oslo' }, metadata: { toolCallId: 'task-9:3', tool: 'lookup_weather' } });
    expect(delegation!.instruction).toBe(
      'Call your tool "lookup_weather" exactly once with the JSON arguments below, and answer with what it returned.\n' +
        'Do not answer from your own knowledge instead of calling it, and do not ask questions: if you cannot call it, fail the task and say why.\n' +
        'Arguments: {"city":"Oslo"}',
    );
    expect(result).toEqual({ ok: true, content: 'Sunny in Oslo.', text: 'Sunny in Oslo.', verified: true });
  });

  it('reads the answer from the task’s history when the final event is empty', async () => {
    expect(await source.invoke('history_only', { city: 'Bergen' }, context())).toEqual({ ok: true, content: 'Rain expected in Bergen.', text: 'Rain expected in Bergen.', verified: true });
  });

  it('reads the answer from the last artifact when there is neither a final message nor an agent message in the history', async () => {
    expect(await source.invoke('artifact_only', {}, context())).toEqual({ ok: true, content: '42 umbrellas in stock', text: '42 umbrellas in stock', verified: true });
  });

  it('marks a prose answer with no sign of the tool as verified: false', async () => {
    expect(await source.invoke('prose_only', { city: 'Rome' }, context())).toEqual({
      ok: true,
      content: 'It is probably sunny in Rome, as usual this time of year.',
      text: 'It is probably sunny in Rome, as usual this time of year.',
      verified: false,
    });
  });

  it('never answers an empty success: nothing anywhere is TOOL_BAD_RESPONSE', async () => {
    expect(await source.invoke('silent', {}, context())).toEqual({
      ok: false,
      error: { code: 'TOOL_BAD_RESPONSE', message: "the agent ended silent with no answer: an empty final message, no agent message in the task's history, no artifact with content", retryable: false },
    });
  });

  it('answers a failed task as TOOL_FAILED with the agent’s words, and a question as TOOL_FAILED after cancelling the task', async () => {
    expect(await source.invoke('fails', {}, context())).toEqual({ ok: false, error: { code: 'TOOL_FAILED', message: 'agent weather failed fails: the weather service is down', retryable: false } });
    expect(await source.invoke('asks', {}, context())).toEqual({
      ok: false,
      error: { code: 'TOOL_FAILED', message: 'agent weather asked for input instead of calling asks: Which country is that city in?', retryable: false },
    });
    expect(agent.canceled).toEqual([agent.received[1]!.taskId]);
  });

  it('takes a direct message reply (no task) as the answer', async () => {
    expect(await source.invoke('direct_reply', {}, context())).toEqual({ ok: true, content: { answer: 7 }, text: 'Direct answer.', verified: true });
  });

  it('cancels the remote task when the deadline passes: TIMEOUT', async () => {
    const result = await source.invoke('never_ends', {}, context({ deadlineMs: 200 }));
    expect(result).toEqual({ ok: false, error: { code: 'TIMEOUT', message: 'the delegation of never_ends to agent weather did not answer within 200 ms', retryable: true } });
    expect(agent.canceled).toEqual([agent.received[0]!.taskId]);
  });

  it('cancels the remote task when the caller gives up: ABORTED', async () => {
    const controller = new AbortController();
    const call = source.invoke('never_ends', {}, context({ signal: controller.signal }));
    await agent.neverEndsRunning;
    controller.abort();
    expect(await call).toEqual({ ok: false, error: { code: 'ABORTED', message: 'the delegation of never_ends to agent weather was given up by its caller', retryable: true } });
    expect(agent.canceled).toEqual([agent.received[0]!.taskId]);
  });

  it('gives every delegation its own context: concurrent calls never share one and each gets its own answer', async () => {
    agent.gather = 4;
    const results = await Promise.all([1, 2, 3, 4].map((n) => source.invoke('gathered', { n }, context({ toolCallId: `call-${n}` }))));
    const contexts = agent.received.map((delegation) => delegation.contextId);
    expect(new Set(contexts).size).toBe(4);
    results.forEach((result, index) => {
      expect(result).toMatchObject({ ok: true, verified: true, content: { args: { n: index + 1 } } });
      const content = (result as unknown as { content: { contextId: string } }).content;
      expect(agent.received.find((delegation) => delegation.args['n'] === index + 1)!.contextId).toBe(content.contextId);
    });
  });

  it('lists the last skills unavailable while the agent is down, answers TOOL_UNAVAILABLE, and never shows the token', async () => {
    const before = await source.list();
    await agent.close();
    const announced = firstValueFrom(source.changes$);
    await source.refresh();
    await announced;
    expect((await source.list()).map((tool) => [tool.name, tool.available])).toEqual(before.map((tool) => [tool.name, false]));
    expect(source.status().error).toMatch(new RegExp(`^the agent card of ${agent.baseUrl}/ could not be read: `));
    const result = await source.invoke('lookup_weather', { city: 'Oslo' }, context());
    expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE' } });
    expect(JSON.stringify([result, source.status(), await source.list()])).not.toContain(TOKEN);
    agent = await A2aToolAgent.start(TOKEN);
  });

  it('answers a refused token as TOOL_UNAVAILABLE without showing it', async () => {
    const wrong = new A2aAgentToolSource({ id: 'weather', agentUrl: agent.baseUrl, token: 'wrong-token-5', refreshIntervalMs: 0 });
    const result = await wrong.invoke('lookup_weather', {}, context());
    expect(result).toEqual({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'agent weather refused the credentials for lookup_weather (HTTP 401)', retryable: true } });
    expect(JSON.stringify(result)).not.toContain('wrong-token-5');
    wrong.close();
  });
});

let contractAgent: A2aToolAgent | undefined;
let contractSource: A2aAgentToolSource | undefined;

describeToolSourceContract('A2aAgentToolSource', {
  async create() {
    contractAgent = await A2aToolAgent.start(TOKEN);
    contractSource = new A2aAgentToolSource({ id: 'weather', agentUrl: contractAgent.baseUrl, token: TOKEN, refreshIntervalMs: 0 });
    return contractSource;
  },
  async change(source) {
    contractAgent!.skills = contractAgent!.skills.slice(0, 1);
    await (source as A2aAgentToolSource).refresh();
  },
  async dispose() {
    contractSource?.close();
    await contractAgent?.close();
  },
});
