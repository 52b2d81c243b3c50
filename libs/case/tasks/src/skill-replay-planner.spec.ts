import type { LearnedSkill, PlanDecision, PlannerHistoryEntry, PlanningContext, UiElement } from '@mobileclaw/domain';
import { SkillReplayPlanner } from './skill-replay-planner';
import { ScriptedPlanner } from './testing/scripted-planner';

const field: UiElement = { index: 0, nodeId: 'n0', type: 'EditText', label: 'Search', resourceId: 'app:id/search', bounds: [0, 100, 1000, 200], center: [500, 150], editable: true };
const list: UiElement = { index: 1, nodeId: 'n1', type: 'RecyclerView', resourceId: 'app:id/list', bounds: [0, 300, 1000, 1300], center: [500, 800], scrollable: true };

const skill: LearnedSkill = {
  name: 'search-news',
  description: 'search {{search}}',
  learnedFrom: { taskId: 't', goal: 'search {{search}}', planner: 'rule-based', deviceId: 'd', learnedAt: '2026-12-01T00:00:00.000Z' },
  parameters: [{ name: 'search', description: 'typed', example: 'news' }],
  steps: [
    { action: { command: 'click', x: 500, y: 150 }, package: 'app', target: { type: 'EditText', label: 'Search', resourceId: 'app:id/search', package: 'app', bounds: [0, 100, 1000, 200], editable: true } },
    { action: { command: 'input', text: '{{search}}', clear: true }, package: 'app', target: { type: 'EditText', label: 'Search', resourceId: 'app:id/search', package: 'app', bounds: [0, 100, 1000, 200], editable: true } },
    { action: { command: 'swipe', x1: 500, y1: 1000, x2: 500, y2: 400 }, package: 'app', target: { type: 'RecyclerView', resourceId: 'app:id/list', package: 'app', bounds: [0, 300, 1000, 1300] } },
  ],
  final: { package: 'app', evidence: { type: 'EditText', text: '{{search}}', label: 'Search', resourceId: 'app:id/search', package: 'app', bounds: [0, 100, 1000, 200], editable: true } },
};

function context(stepIndex: number, elements: UiElement[], history: PlannerHistoryEntry[] = [], pkg = 'app'): PlanningContext {
  return { taskId: 't', deviceId: 'd', goal: 'search sports', stepIndex, maxSteps: 10, observation: { screen: { width: 1000, height: 2000 }, elements, package: pkg }, history, signal: new AbortController().signal };
}

const ok = (index: number, decision: PlanDecision): PlannerHistoryEntry => ({ index, decision, result: { status: 'success' } });

describe('SkillReplayPlanner', () => {
  const fallbackDone = (): ScriptedPlanner => new ScriptedPlanner([() => ({ type: 'done', summary: 'planned', reasoning: 'the planner looked' })]);

  it('replays each step on the element\'s current place with the arguments, then checks the final screen, without the planner', async () => {
    const fallback = fallbackDone();
    const replay = new SkillReplayPlanner(skill, { search: 'sports' }, fallback);
    expect(replay.name).toBe('replay:search-news');
    // The field and the list moved 50 px down since the skill was learned.
    const moved = [{ ...field, bounds: [0, 150, 1000, 250], center: [500, 200] }, { ...list, bounds: [0, 350, 1000, 1350], center: [500, 850] }] as UiElement[];
    const d0 = await replay.plan(context(0, moved));
    expect(d0).toMatchObject({ type: 'action', action: { command: 'click', x: 500, y: 200 }, elementIndex: 0 });
    const d1 = await replay.plan(context(1, moved, [ok(0, d0)]));
    expect(d1).toMatchObject({ action: { command: 'input', text: 'sports', clear: true } });
    const d2 = await replay.plan(context(2, moved, [ok(0, d0), ok(1, d1)]));
    expect(d2).toMatchObject({ action: { command: 'swipe', x1: 500, y1: 1050, x2: 500, y2: 450 } });
    const shown = [{ ...moved[0]!, text: 'sports' }, moved[1]!];
    const d3 = await replay.plan(context(3, shown, [ok(0, d0), ok(1, d1), ok(2, d2)]));
    expect(d3).toMatchObject({ type: 'done', summary: 'Replayed the learned skill "search-news" (3 steps); the final screen shows what it showed when learned.' });
    expect(fallback.seen).toHaveLength(0);
    expect(replay.handedOverToPlanner).toBe(false);
  });

  it('hands over when the final screen does not show what the learned one showed', async () => {
    const fallback = fallbackDone();
    const replay = new SkillReplayPlanner({ ...skill, steps: skill.steps.slice(0, 2) }, { search: 'sports' }, fallback);
    const d0 = await replay.plan(context(0, [field, list]));
    const d1 = await replay.plan(context(1, [field, list], [ok(0, d0)]));
    const final = await replay.plan(context(2, [{ ...field, text: 'spor' }, list], [ok(0, d0), ok(1, d1)]));
    expect(final).toEqual({
      type: 'done',
      summary: 'planned',
      reasoning: 'the final screen differs from the learned one: expected EditText "Search" (id app:id/search) to show "sports", but it shows "spor" — handing over to the planner (scripted). the planner looked',
    });
    expect(fallback.seen.map((c) => c.stepIndex)).toEqual([2]);
    expect(replay.handedOverToPlanner).toBe(true);
    // From then on the planner plans every step.
    await replay.plan(context(3, [field], []));
    expect(fallback.seen.map((c) => c.stepIndex)).toEqual([2, 3]);
  });

  it('hands over after a replayed action failed, and on another app, and never taps a point it cannot find again', async () => {
    const failed = new SkillReplayPlanner(skill, { search: 'x' }, fallbackDone());
    const d0 = await failed.plan(context(0, [field, list]));
    const after = await failed.plan(context(1, [field, list], [{ index: 0, decision: d0, result: { status: 'error', errorCode: 'DEVICE_ERROR', message: 'TARGET_NOT_FOUND: nothing there' } }]));
    expect(after.reasoning).toBe('step 1 did not succeed (DEVICE_ERROR: TARGET_NOT_FOUND: nothing there) — handing over to the planner (scripted). the planner looked');

    const elsewhere = new SkillReplayPlanner(skill, { search: 'x' }, fallbackDone());
    expect((await elsewhere.plan(context(0, [field, list], [], 'other.app'))).reasoning).toBe(
      'screen differs from step 1: expected EditText "Search" (id app:id/search) in app, but other.app is in the foreground — handing over to the planner (scripted). the planner looked',
    );

    const point = new SkillReplayPlanner({ ...skill, steps: [{ action: { command: 'click', x: 1, y: 1 }, package: 'app' }] }, {}, fallbackDone());
    expect((await point.plan(context(0, [field]))).reasoning).toBe(
      'screen differs from step 1: step 1 taps a point (1, 1) on no element it could find again; it is not tapped blindly — handing over to the planner (scripted). the planner looked',
    );
  });
});
