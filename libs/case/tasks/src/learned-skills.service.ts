import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock, LearnedSkillStore, MobileClawError, Planner, type FieldError, type LearnedSkillParameter, type Task } from '@mobileclaw/domain';
import { learnSkill, fillParameters } from './skill-learning';
import { SkillReplayPlanner } from './skill-replay-planner';
import { SystemClock } from './system-clock';
import { DEFAULT_TASK_CASE_OPTIONS, TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';

/** A saved skill, as `POST /api/tasks/:taskId/skill` answers it. */
export interface SavedSkill {
  name: string;
  description: string;
  /** Where its SKILL.md was written. */
  location: string;
  /** The typed texts a replay may change; a secret has no `example`. */
  parameters: LearnedSkillParameter[];
  /** How many actions it replays. */
  steps: number;
}

/**
 * Who already holds a tool name: resolves a description of the tool (e.g. `mcp:everything/echo`) when
 * some source lists `name`, else undefined. A saved skill must not take a name another tool answers
 * to: the workspace skills would win it and silently hide that tool from every caller.
 */
export type ToolNameHolder = (name: string) => Promise<string | undefined>;

/** The DI token of a {@link ToolNameHolder} for {@link LearnedSkills} (optional: without it, only existing skill folders count as taken). */
export const TOOL_NAME_HOLDER = Symbol('TOOL_NAME_HOLDER');

/** Input of {@link LearnedSkills.replay}. */
export interface ReplaySkillInput {
  deviceId: string;
  /** Parameter values by name (strings); a parameter left out takes its `example`; a secret must be given. */
  arguments?: Record<string, unknown>;
}

/**
 * Skills learned from tasks: saving a completed task as a SKILL.md skill ({@link learnSkill}, stored
 * through the {@link LearnedSkillStore} port) and replaying one on a phone as a task of its own, planned
 * by a {@link SkillReplayPlanner} over the gateway's {@link Planner} (no model call while each screen is
 * the learned one; the gateway's planner takes over where one differs).
 */
@Injectable()
export class LearnedSkills {
  constructor(
    private readonly tasks: TaskService,
    private readonly planner: Planner,
    private readonly store: LearnedSkillStore,
    /** The step budgets replays are sized within (the task module's; its defaults without it). */
    @Optional() @Inject(TASK_CASE_OPTIONS) private readonly options: Pick<TaskCaseOptions, 'defaultMaxSteps' | 'maxStepsLimit'> = DEFAULT_TASK_CASE_OPTIONS,
    @Optional() private readonly clock: Clock = new SystemClock(),
    @Optional() @Inject(TOOL_NAME_HOLDER) private readonly nameHolder?: ToolNameHolder,
  ) {}

  /**
   * Saves a completed task as a skill.
   * @throws MobileClawError `TASK_NOT_FOUND`, `TASK_STATE_CONFLICT` (not `completed`, or no action to
   *   learn), `VALIDATION_FAILED` (bad `name` or `description`), `SKILL_EXISTS` (a skill folder of that
   *   name, or a tool of any source listed under that name), `STORAGE_ERROR`.
   */
  async save(taskId: string, choice: { name?: string; description?: string } = {}): Promise<SavedSkill> {
    const task = await this.tasks.get(taskId);
    const skill = learnSkill(task, { ...choice, learnedAt: this.clock.now().toISOString() });
    const holder = await this.nameHolder?.(skill.name);
    if (holder !== undefined) throw new MobileClawError('SKILL_EXISTS', `a tool named ${skill.name} exists already (${holder}); choose another name`);
    const { location } = await this.store.create(skill);
    return { name: skill.name, description: skill.description, location, parameters: skill.parameters, steps: skill.steps.length };
  }

  /**
   * Starts a replay of a learned skill on a phone: a task (planner `replay:<name>`) whose goal is the
   * learned goal with the arguments filled in (a secret's placeholder stays), and whose step budget
   * covers the skill's steps plus its final check.
   * @returns the task as {@link TaskService.start} returns it.
   * @throws MobileClawError `TOOL_NOT_FOUND` (no learned skill of that name), `SKILL_INVALID` (its SKILL.md is no replayable skill), `VALIDATION_FAILED` (an
   *   unknown parameter, a value that is not a string, a secret left out; field errors
   *   `arguments.<name>`), and {@link TaskService.start}'s errors (`DEVICE_NOT_FOUND`, `DEVICE_BUSY`, …).
   */
  async replay(name: string, input: ReplaySkillInput): Promise<Task> {
    const skill = await this.store.get(name);
    const given = input.arguments ?? {};
    const fieldErrors: FieldError[] = [];
    const values: Record<string, string> = {};
    for (const key of Object.keys(given)) {
      if (!skill.parameters.some((p) => p.name === key)) fieldErrors.push({ field: `arguments.${key}`, message: `skill ${name} has no parameter ${key} (it has: ${skill.parameters.map((p) => p.name).join(', ') || 'none'})` });
    }
    for (const parameter of skill.parameters) {
      const value = given[parameter.name];
      if (value === undefined) {
        if (parameter.example !== undefined) values[parameter.name] = parameter.example;
        else fieldErrors.push({ field: `arguments.${parameter.name}`, message: `${parameter.name} must be given: it is ${parameter.secret ? 'a secret, never stored with the skill' : 'a parameter without an example'}` });
      } else if (typeof value !== 'string') {
        fieldErrors.push({ field: `arguments.${parameter.name}`, message: `${parameter.name} must be a string` });
      } else {
        values[parameter.name] = value;
      }
    }
    if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', fieldErrors.map((f) => f.message).join('; '), { fieldErrors });
    const visible = Object.fromEntries(skill.parameters.filter((p) => !p.secret).map((p) => [p.name, values[p.name]!]));
    const maxSteps = Math.min(this.options.maxStepsLimit, Math.max(this.options.defaultMaxSteps, skill.steps.length + 1));
    return this.tasks.start({
      deviceId: input.deviceId,
      goal: fillParameters(skill.learnedFrom.goal, visible),
      maxSteps,
      planner: new SkillReplayPlanner(skill, values, this.planner),
    });
  }
}
