import type { ActionTarget, AgentAction } from '../task/task';

/**
 * A skill learned from a completed task: its action sequence, each target recorded by what identifies
 * it on screen, and the text it typed turned into parameters. Stored as a SKILL.md folder (front
 * matter `metadata.mobileclaw.learned` holds this model; the body describes the steps in words), it
 * can be replayed on a phone without a model (a task whose planner is `replay:<name>`).
 */
export interface LearnedSkill {
  /** The skill's name: {@link SKILL_NAME_PATTERN}, also its folder's name. */
  name: string;
  /** What the skill does, at most 1,024 characters: the learned goal, typed texts as `{{parameter}}`. */
  description: string;
  learnedFrom: LearnedSkillOrigin;
  parameters: LearnedSkillParameter[];
  /** The actions, in order; at least one. */
  steps: LearnedStep[];
  /** What the learned task's final screen showed; a replay completes only on a screen that shows it too. */
  final: LearnedFinalScreen;
}

/** The task a skill was learned from. Times are ISO-8601. */
export interface LearnedSkillOrigin {
  taskId: string;
  /** The task's goal, typed texts as `{{parameter}}` (a secret's never written). */
  goal: string;
  /** The planner that planned it, e.g. `rule-based`, `llm:gpt-4o`. */
  planner: string;
  deviceId: string;
  learnedAt: string;
}

/**
 * A text the task typed, which a replay may change. `example` is the text typed when it was learned;
 * absent for a `secret` (typed into a password field), which is never stored and must be given to
 * each replay.
 */
export interface LearnedSkillParameter {
  /** `^[a-z][a-z0-9_]{0,63}$`, unique in the skill. */
  name: string;
  description: string;
  example?: string;
  secret?: boolean;
}

/**
 * One learned action. An `input` action's `text` is `{{<parameter>}}`; a step with a `target` runs only
 * when that element is found again (see `findActionTarget`), on its current bounds.
 */
export interface LearnedStep {
  action: AgentAction;
  /** The foreground package of the screen the action was taken on. */
  package?: string;
  target?: ActionTarget;
}

/** The learned task's final screen: its foreground package and, when known, the last target's final state. */
export interface LearnedFinalScreen {
  package?: string;
  /** An editable evidence's `text` may be `{{<parameter>}}`. */
  evidence?: ActionTarget;
}

/**
 * Names of skills in the Agent Skills format: 1–64 lowercase letters, digits and single hyphens, not
 * starting or ending with a hyphen (the folder has the same name).
 */
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The longest skill name, in characters. */
export const SKILL_NAME_MAX_LENGTH = 64;

/** Why `name` is not a valid skill name, or undefined when it is. */
export function skillNameError(name: string): string | undefined {
  if (name.length === 0 || name.length > SKILL_NAME_MAX_LENGTH) return `a skill name has 1 to ${SKILL_NAME_MAX_LENGTH} characters (got ${name.length})`;
  if (!SKILL_NAME_PATTERN.test(name)) return `a skill name is lowercase letters, digits and single hyphens, not starting or ending with a hyphen (got ${JSON.stringify(name)})`;
  // The name is a folder's: Windows gives these names to devices, so such a folder cannot exist there.
  if (/^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/.test(name)) return `a skill name may not be ${name}: Windows reserves it for a device, so its folder could not be created there`;
  return undefined;
}

/** `{{name}}`: where a parameter's value goes in a learned step's text. */
export function parameterPlaceholder(name: string): string {
  return `{{${name}}}`;
}

/**
 * Where learned skills are kept (the workspace's SKILL.md folders). Abstract class so that it doubles
 * as the Nest DI token.
 */
export abstract class LearnedSkillStore {
  /**
   * Stores a new skill, all or nothing.
   * @returns where it was written (a path people can open).
   * @throws MobileClawError `SKILL_EXISTS` when a skill (or folder) of that name exists, `STORAGE_ERROR`.
   */
  abstract create(skill: LearnedSkill): Promise<{ location: string }>;

  /**
   * The learned skill of that name, as stored now (a person may have edited it).
   * @throws MobileClawError `TOOL_NOT_FOUND` when there is none, or its file is no valid learned skill
   *   (the message says why), `STORAGE_ERROR`.
   */
  abstract get(name: string): Promise<LearnedSkill>;
}
