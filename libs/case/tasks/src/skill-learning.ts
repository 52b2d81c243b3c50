import {
  MobileClawError,
  SKILL_NAME_MAX_LENGTH,
  parameterPlaceholder,
  skillNameError,
  type ActionTarget,
  type AgentAction,
  type LearnedSkill,
  type LearnedSkillParameter,
  type LearnedStep,
  type TaskStep,
} from '@mobileclaw/domain';
import type { TaskWithSteps } from './task.service';

/** The longest description of a learned skill, in characters (the Agent Skills format's bound). */
export const LEARNED_SKILL_DESCRIPTION_MAX_LENGTH = 1024;

/** What a person may choose when saving a task as a skill. */
export interface SkillLearningOptions {
  /** The skill's name ({@link skillNameError}); default: the learned goal's ASCII words joined by hyphens, else `task-<first 8 letters and digits of the id>`. */
  name?: string;
  /** 1–1,024 characters; default: the goal, typed texts as `{{parameter}}`. */
  description?: string;
  /** ISO-8601. */
  learnedAt: string;
}

/**
 * Turns a completed task into a {@link LearnedSkill}: its actions that succeeded, in order (the
 * agent's and a person's during a takeover; tool calls and failed actions left out), each with the
 * target the task loop recorded; each typed text a parameter (named after its field's resource id or
 * label, `example` the text typed), a text typed into a password field (or a field it cannot tell) a
 * `secret` parameter whose text is written nowhere (not in the steps, the goal, the description nor any target); the final
 * screen's package and evidence from the `done` step.
 * @throws MobileClawError `TASK_STATE_CONFLICT` (the task is not `completed`, or took no action on the
 *   phone), `VALIDATION_FAILED` (a bad `name` or `description`; field errors `name`, `description`).
 */
export function learnSkill(task: TaskWithSteps, options: SkillLearningOptions): LearnedSkill {
  if (task.status !== 'completed') throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} is ${task.status}: only a completed task can be saved as a skill`);
  const actions = task.steps.filter((s): s is TaskStep & { plan: Extract<TaskStep['plan'], { type: 'action' }> } => s.plan?.type === 'action' && s.result?.status === 'success');
  if (actions.length === 0) throw new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} took no action on the phone: there is nothing to learn`);

  const parameters: LearnedSkillParameter[] = [];
  /** Typed texts → placeholders, secrets first (a secret must never survive in any text). */
  const secrets: [string, string][] = [];
  const typed: [string, string][] = [];
  const steps: LearnedStep[] = actions.map((s, i) => {
    const step: LearnedStep = { action: structuredClone(s.plan.action) };
    const pkg = s.plan.target?.package ?? s.observation?.package;
    if (pkg !== undefined) step.package = pkg;
    if (s.plan.target) step.target = structuredClone(s.plan.target);
    if (step.action.command === 'input') {
      // Where the field is unknown, nothing tells it was no password field: the text is kept as a secret.
      const secret = !step.target || !!step.target.password;
      const name = uniqueName(parameterName(step.target, secret), parameters);
      const where = step.target ? `${step.target.password ? 'the password field ' : ''}${describeField(step.target)}` : 'a field it could not tell (kept secret)';
      const parameter: LearnedSkillParameter = { name, description: `Text typed into ${where} (step ${i + 1}).` };
      if (secret) parameter.secret = true;
      else parameter.example = step.action.text;
      parameters.push(parameter);
      if (step.action.text !== '') (secret ? secrets : typed).push([step.action.text, parameterPlaceholder(name)]);
      step.action = { ...step.action, text: parameterPlaceholder(name) };
    }
    return step;
  });
  const last = task.steps.at(-1)?.plan;
  const finalPackage = task.steps.at(-1)?.observation?.package;
  const evidence = last?.type === 'done' && last.evidence ? structuredClone(last.evidence) : undefined;

  const scrub = (text: string): string => replaceAll(text, secrets);
  const parametrise = (text: string): string => replaceWords(scrub(text), typed);
  for (const step of steps) if (step.target) scrubTarget(step.target, scrub);
  if (evidence) {
    scrubTarget(evidence, scrub);
    // A field that ends showing a typed text shows the parameter's value on replay.
    const exact = evidence.editable && evidence.text !== undefined ? typed.find(([text]) => text === evidence.text) : undefined;
    if (exact) evidence.text = exact[1];
  }
  const goal = parametrise(task.goal);

  const fieldErrors: { field: string; message: string }[] = [];
  const name = options.name ?? defaultName(goal, task.taskId);
  const nameError = skillNameError(name);
  if (nameError) fieldErrors.push({ field: 'name', message: nameError });
  const description = options.description === undefined ? goal.slice(0, LEARNED_SKILL_DESCRIPTION_MAX_LENGTH) : scrub(options.description.trim());
  if (description.length === 0 || description.length > LEARNED_SKILL_DESCRIPTION_MAX_LENGTH) {
    fieldErrors.push({ field: 'description', message: `a description has 1 to ${LEARNED_SKILL_DESCRIPTION_MAX_LENGTH} characters (got ${description.length})` });
  }
  if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', fieldErrors.map((f) => f.message).join('; '), { fieldErrors });

  return {
    name,
    description,
    learnedFrom: { taskId: task.taskId, goal, planner: task.planner, deviceId: task.deviceId, learnedAt: options.learnedAt },
    parameters,
    steps,
    final: { ...(finalPackage === undefined ? {} : { package: finalPackage }), ...(evidence ? { evidence } : {}) },
  };
}

/**
 * The default name: the learned goal's (typed texts as their parameters' names) ASCII letters and digits
 * as hyphenated lowercase words, at most 64 characters; else from the task id.
 */
function defaultName(goal: string, taskId: string): string {
  const words = goal.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}-${word}`;
    if (next.length > SKILL_NAME_MAX_LENGTH) break;
    name = next;
  }
  return name !== '' ? name : `task-${taskId.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 8)}`;
}

/** A parameter's name: `password` for a secret, else the field's label (`mail_address`) or resource id entry (`url_bar`) in snake case, else `text`. */
function parameterName(target: ActionTarget | undefined, secret: boolean): string {
  if (secret) return 'password';
  const entry = target?.resourceId?.slice(target.resourceId.lastIndexOf('/') + 1);
  for (const candidate of [target?.label, entry]) {
    const snake = candidate?.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^[_0-9]+|_+$/g, '').slice(0, 48);
    if (snake) return snake;
  }
  return 'text';
}

function uniqueName(base: string, taken: readonly LearnedSkillParameter[]): string {
  let name = base;
  for (let n = 2; taken.some((p) => p.name === name); n++) name = `${base}_${n}`;
  return name;
}

function describeField(target: ActionTarget): string {
  const name = target.label ?? target.desc ?? target.resourceId;
  return name === undefined ? `the ${target.type}` : `${target.type} ${JSON.stringify(name)}`;
}

/**
 * Replaces each typed text where it stands on its own (not inside a longer word: `a` typed stays in
 * "address"), longest first; a secret, in contrast, is replaced wherever it occurs ({@link replaceAll}).
 */
function replaceWords(text: string, pairs: readonly [string, string][]): string {
  let out = text;
  for (const [from, to] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), () => to);
  }
  return out;
}

function replaceAll(text: string, pairs: readonly [string, string][]): string {
  let out = text;
  for (const [from, to] of pairs) out = out.split(from).join(to);
  return out;
}

/** Replaces secrets in a target's free texts (another element may show what was typed into a password field). */
function scrubTarget(target: ActionTarget, scrub: (text: string) => string): void {
  if (target.text !== undefined) target.text = scrub(target.text);
  if (target.desc !== undefined) target.desc = scrub(target.desc);
  if (target.label !== undefined) target.label = scrub(target.label);
}

/** Replaces each `{{name}}` in `text` with its value from `values` (placeholders without a value stay). */
export function fillParameters(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([a-z][a-z0-9_]*)\}\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/** The action a learned step sends, its `{{parameter}}` text filled in. */
export function filledAction(action: AgentAction, values: Readonly<Record<string, string>>): AgentAction {
  return action.command === 'input' ? { ...action, text: fillParameters(action.text, values) } : { ...action };
}
