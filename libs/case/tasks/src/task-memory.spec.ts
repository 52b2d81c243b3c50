import { firstValueFrom, toArray } from 'rxjs';
import { TaskMemory, toolSuccess, type MemoryHit, type MemoryScope, type PlanDecision, type SessionTurn } from '@mobileclaw/domain';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';
import { ScriptedTaskTools, taskToolSpec } from './testing/scripted-task-tools';

/** A task memory that recalls what the test gives it, one answer per recall (the last one again), and keeps the turns. */
class ScriptedTaskMemory extends TaskMemory {
  readonly recalls: { scope: MemoryScope; goal: string }[] = [];
  readonly turns: { scope: MemoryScope; turn: SessionTurn }[] = [];

  constructor(private readonly answers: (() => Promise<MemoryHit[]>)[]) {
    super();
  }

  override recall(scope: MemoryScope, goal: string): Promise<MemoryHit[]> {
    this.recalls.push({ scope, goal });
    return this.answers[Math.min(this.recalls.length - 1, this.answers.length - 1)]();
  }

  override record(scope: MemoryScope, turn: SessionTurn): void {
    this.turns.push({ scope, turn });
  }
}

function memoryHit(text: string): MemoryHit {
  return { layer: 'curated', id: `mem_${text.length}`, text, score: 0.9, ageDays: 2, createdAt: '2026-11-30T00:00:00.000Z', parts: { lexical: 0.9, semantic: null, relevance: 0.9, decay: 1 } };
}

const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });
const typeInField = (text: string) => (): PlanDecision => ({ type: 'action', action: { command: 'input', text }, reasoning: 'type it', elementIndex: 1 });
const done = (summary: string) => (): PlanDecision => ({ type: 'done', summary, reasoning: 'the goal is reached' });

function setup(script: ConstructorParameters<typeof ScriptedPlanner>[0], memory?: TaskMemory, tools?: ScriptedTaskTools) {
  const phone = new ScriptedPhone(['phone-1']);
  const planner = new ScriptedPlanner(script);
  const settler = new StableTreeSettler({ timeoutMs: DEFAULT_TASK_CASE_OPTIONS.settleTimeoutMs, pollMs: DEFAULT_TASK_CASE_OPTIONS.settlePollMs }, new InstantSettleTimer());
  const service = new TaskService(phone, planner, new InMemoryTaskRepository(), DEFAULT_TASK_CASE_OPTIONS, undefined, undefined, undefined, undefined, settler, undefined, undefined, undefined, tools, memory);
  return { phone, planner, service };
}

async function run(service: TaskService, goal: string, contextId?: string) {
  const task = await service.start({ deviceId: 'phone-1', goal, ...(contextId === undefined ? {} : { contextId }) });
  await firstValueFrom(service.events(task.taskId).pipe(toArray()));
  return service.get(task.taskId);
}

const texts = (memory: ScriptedTaskMemory) => memory.turns.map(({ turn }) => [turn.role, turn.text]);

describe('memory in the task loop', () => {
  it('recalls once for the goal before the first planning and shows the memories at every step', async () => {
    const memory = new ScriptedTaskMemory([async () => [memoryHit('home Wi-Fi is ACME-5G')]]);
    const { planner, service } = setup([tapWifi, done('Wi-Fi is on')], memory);
    const task = await run(service, 'turn on Wi-Fi');
    expect(task.status).toBe('completed');
    expect(memory.recalls).toEqual([{ scope: 'device:phone-1', goal: 'turn on Wi-Fi' }]);
    expect(planner.seen.map((ctx) => ctx.memories?.map((m) => m.text))).toEqual([['home Wi-Fi is ACME-5G'], ['home Wi-Fi is ACME-5G']]);
  });

  it('records the goal, each decision, each action’s result and the end as turns of the task’s scope, by the time the end is published', async () => {
    const memory = new ScriptedTaskMemory([async () => []]);
    const { service } = setup([tapWifi, done('Wi-Fi is on')], memory);
    const task = await run(service, 'turn on Wi-Fi', 'chat-42');
    expect(texts(memory)).toEqual([
      ['user', 'turn on Wi-Fi'],
      ['assistant', 'tap "Wi-Fi"'],
      ['tool', 'ok'],
      ['assistant', 'done: Wi-Fi is on'],
      ['assistant', 'task completed: Wi-Fi is on'],
    ]);
    expect(new Set(memory.turns.map(({ scope }) => scope))).toEqual(new Set(['context:chat-42']));
    expect(memory.turns.every(({ turn }) => turn.taskId === task.taskId && !Number.isNaN(Date.parse(turn.at)))).toBe(true);
  });

  it('records a text typed into a password field as [secret] in every turn, the goal included, and one typed into another field as typed', async () => {
    const memory = new ScriptedTaskMemory([async () => []]);
    const { phone, service } = setup([typeInField('hunter2'), typeInField('visible note'), done('typed hunter2')], memory);
    phone.passwordField = true;
    const original = phone.execute.bind(phone);
    phone.execute = async (deviceId, command, options) => {
      // After the password, the field is an ordinary one (showing what was typed into it).
      if (command.command === 'input' && command.text === 'hunter2') phone.passwordField = false;
      return original(deviceId, command, options);
    };
    await run(service, 'sign in with hunter2');
    expect(JSON.stringify(memory.turns)).not.toContain('hunter2');
    expect(texts(memory).filter(([role]) => role !== 'tool')).toEqual([
      ['user', 'sign in with [secret]'],
      ['assistant', 'type [secret] into EditText'],
      ['assistant', 'type "visible note" into EditText'],
      ['assistant', 'done: typed [secret]'],
      ['assistant', 'task completed: typed [secret]'],
    ]);
  });

  it('keeps no words of a task whose goal mentions a credential, however it ends (here before anything was typed)', async () => {
    const memory = new ScriptedTaskMemory([async () => []]);
    const fail = (): PlanDecision => ({ type: 'fail', reason: 'no field for Panda42Secret', reasoning: 'nothing to type into' });
    const { service } = setup([tapWifi, fail], memory);
    const task = await run(service, 'type Panda42Secret into Password', 'chat-9');
    expect(task.status).toBe('failed');
    expect(JSON.stringify(memory.turns)).not.toContain('Panda42Secret');
    expect(texts(memory)).toEqual([
      ['user', '[a task about a password or another secret: its words are not kept]'],
      ['assistant', 'task failed'],
    ]);
    // The same for other credentials and in Chinese.
    for (const goal of ['enter 4711 as my PIN', '输入验证码 883311', 'paste the API token abc123']) {
      const other = new ScriptedTaskMemory([async () => []]);
      const { service: again } = setup([done('done')], other);
      await run(again, goal);
      expect(texts(other)).toEqual([
        ['user', '[a task about a password or another secret: its words are not kept]'],
        ['assistant', 'task completed'],
      ]);
    }
  });

  it('passes the task’s scope to gateway tools and recalls again after a memory_store step', async () => {
    const store = taskToolSpec('memory_store', { kind: 'ACTION', mode: 'NATIVE', source: 'native:memory' });
    const tools = new ScriptedTaskTools([store], () => toolSuccess({ stored: [] }, 'Remembered.'));
    const memory = new ScriptedTaskMemory([async () => [], async () => [memoryHit('mom is Alice')]]);
    const callStore = (): PlanDecision => ({ type: 'tool_call', name: 'memory_store', arguments: { text: 'mom is Alice' }, reasoning: 'the user asks to remember it' });
    const { planner, service } = setup([callStore, done('remembered')], memory, tools);
    const task = await run(service, 'remember that mom is Alice', 'chat-7');
    expect(task.status).toBe('completed');
    expect(tools.calls.map((call) => call.options.scope)).toEqual(['context:chat-7']);
    expect(memory.recalls).toHaveLength(2);
    expect(planner.seen.map((ctx) => ctx.memories?.map((m) => m.text))).toEqual([[], ['mom is Alice']]);
    expect(texts(memory).slice(1, 3)).toEqual([
      ['assistant', 'call memory_store {"text":"mom is Alice"}'],
      ['tool', 'ok: Remembered.'],
    ]);
  });

  it('plans without memories when the recall fails, and records a failed end', async () => {
    const memory = new ScriptedTaskMemory([async () => Promise.reject(new Error('index gone'))]);
    const fail = (): PlanDecision => ({ type: 'fail', reason: 'no Wi-Fi here', reasoning: 'nothing to tap' });
    const { planner, service } = setup([fail], memory);
    const task = await run(service, 'turn on Bluetooth');
    expect(task.status).toBe('failed');
    expect(planner.seen[0].memories).toEqual([]);
    expect(texts(memory).at(-1)).toEqual(['assistant', 'task failed: GOAL_FAILED no Wi-Fi here']);
  });

  it('shows no memories and records nothing without a memory provider', async () => {
    const { planner, service } = setup([tapWifi, done('Wi-Fi is on')]);
    expect((await run(service, 'turn on Wi-Fi')).status).toBe('completed');
    expect(planner.seen.map((ctx) => 'memories' in ctx)).toEqual([false, false]);
  });
});
