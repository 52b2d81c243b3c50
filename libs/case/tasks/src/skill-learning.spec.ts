import type { PlanDecision, TaskStep } from '@mobileclaw/domain';
import { learnSkill } from './skill-learning';
import type { TaskWithSteps } from './task.service';

const timings = { settleMs: 0, captureMs: 0, transferMs: 0, planningMs: 0, actionMs: 0 };
const step = (index: number, plan: PlanDecision, status: 'success' | 'error' = 'success'): TaskStep => ({
  taskId: 'T-1',
  index,
  startedAt: '2026-12-01T00:00:00.000Z',
  observation: { screen: { width: 100, height: 200 }, elementCount: 1, package: 'app' },
  plan,
  result: { status },
  timings,
});
const field = (label: string, password = false) => ({ type: 'EditText', label, package: 'app', bounds: [0, 0, 10, 10] as [number, number, number, number], editable: true, ...(password ? { password } : {}) });

function task(goal: string, steps: TaskStep[], status: TaskWithSteps['status'] = 'completed'): TaskWithSteps {
  return { taskId: 'T-1', deviceId: 'd', goal, status, maxSteps: 25, planner: 'rule-based', createdAt: '2026-12-01T00:00:00.000Z', stepCount: steps.length, steps };
}

const learnedAt = '2026-12-01T01:00:00.000Z';

describe('learnSkill', () => {
  it('keeps the successful actions, turns typed texts into parameters and a password into a secret written nowhere', () => {
    const skill = learnSkill(
      task('log in as a with pass hunter2 then search a', [
        step(0, { type: 'action', action: { command: 'input', text: 'a' }, reasoning: 'type a', target: field('User name') }),
        step(1, { type: 'action', action: { command: 'back' }, reasoning: 'failed' }, 'error'),
        step(2, { type: 'action', action: { command: 'input', text: 'hunter2' }, reasoning: 'Type "hunter2"', target: { ...field('Password', true), desc: 'shows hunter2' } }),
        step(3, { type: 'action', action: { command: 'input', text: 'x' }, reasoning: 'somewhere' }),
        step(4, { type: 'done', summary: 'in', reasoning: 'in' }),
      ]),
      { learnedAt },
    );
    expect(skill.parameters).toEqual([
      { name: 'user_name', description: 'Text typed into EditText "User name" (step 1).', example: 'a' },
      { name: 'password', description: 'Text typed into the password field EditText "Password" (step 2).', secret: true },
      // Where the field is not known, the text might have been a password: kept secret.
      { name: 'password_2', description: 'Text typed into a field it could not tell (kept secret) (step 3).', secret: true },
    ]);
    expect(skill.steps.map((s) => s.action)).toEqual([
      { command: 'input', text: '{{user_name}}' },
      { command: 'input', text: '{{password}}' },
      { command: 'input', text: '{{password_2}}' },
    ]);
    // "a" is replaced where it stands alone, not inside "as" or "search"; the secret everywhere.
    expect(skill.learnedFrom.goal).toBe('log in as {{user_name}} with pass {{password}} then search {{user_name}}');
    expect(skill.description).toBe(skill.learnedFrom.goal);
    expect(skill.name).toBe('log-in-as-user-name-with-pass-password-then-search-user-name');
    expect(JSON.stringify(skill)).not.toContain('hunter2');
    expect(skill.steps[1]!.target).toEqual({ ...field('Password', true), desc: 'shows {{password}}' });
  });

  it('refuses a task that is not completed or took no action, a bad name and an empty description', () => {
    const tap = step(0, { type: 'action', action: { command: 'home' }, reasoning: '' });
    expect(() => learnSkill(task('go home', [tap], 'failed'), { learnedAt })).toThrow(expect.objectContaining({ code: 'TASK_STATE_CONFLICT', message: 'task T-1 is failed: only a completed task can be saved as a skill' }));
    expect(() => learnSkill(task('say hi', [step(0, { type: 'done', summary: 's', reasoning: '' })]), { learnedAt })).toThrow(expect.objectContaining({ code: 'TASK_STATE_CONFLICT' }));
    expect(() => learnSkill(task('go home', [tap]), { learnedAt, name: '-home' })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', fieldErrors: [expect.objectContaining({ field: 'name' })] }));
    expect(() => learnSkill(task('go home', [tap]), { learnedAt, description: '  ' })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', fieldErrors: [expect.objectContaining({ field: 'description' })] }));
    // A goal with no ASCII word names the skill after the task.
    expect(learnSkill(task('回到主屏幕', [tap]), { learnedAt }).name).toBe('task-t1');
  });
});
