import {
  Planner,
  describeActionTarget,
  findActionTarget,
  type AgentAction,
  type LearnedSkill,
  type LearnedStep,
  type PlanDecision,
  type PlanningContext,
  type UiElement,
} from '@mobileclaw/domain';
import { fillParameters, filledAction } from './skill-learning';

/** The planner name of a learned skill's replay: `replay:<skill name>`. */
export function replayPlannerName(skillName: string): string {
  return `replay:${skillName}`;
}

/**
 * Replays a {@link LearnedSkill} as one task's planner, without a model: a decorator around the
 * gateway's planner, chosen for that task only (`StartTaskInput.planner`), which it hands over to
 * when the screen is not the learned one. Before each learned step, the screen must show its target
 * (`findActionTarget`: same app, same class, resource id, description, label and naming text, exactly
 * one such element, a toggle in its recorded state); the action then goes to the element's current
 * bounds (a tap to its centre, a swipe moved with it). `open` and `home` need no particular screen;
 * `back` and a swipe without a target need the learned app in the foreground; a tap or press on a
 * point with no element is never replayed (nothing tells it would hit the same thing). After the last
 * step, the task completes (`done`) only when the final screen is the learned one's: the same app and,
 * when recorded, the last target in its learned final state (a field's text, with the replay's
 * arguments; a toggle's checked state).
 *
 * When a screen differs, or a replayed action failed, it hands over: this step and every later one are
 * planned by the gateway's planner, and this step's reasoning starts with why, e.g. `screen differs
 * from step 3: expected EditText "Search" (id com.example:id/search), but no such element is on screen
 * — handing over to the planner (rule-based).` It holds the replay's progress, so one instance serves
 * one task.
 */
export class SkillReplayPlanner extends Planner {
  readonly name: string;
  /** Index of the next learned step to replay. */
  private next = 0;
  /** The task step index of the last replayed action, whose result the next call checks. */
  private lastActionStep?: { taskStep: number; learnedStep: number };
  private handedOver = false;

  /**
   * @param skill the skill to replay.
   * @param values every parameter's value (secrets included), by name.
   * @param fallback the planner that takes over when a screen differs.
   */
  constructor(
    private readonly skill: LearnedSkill,
    private readonly values: Readonly<Record<string, string>>,
    private readonly fallback: Planner,
  ) {
    super();
    this.name = replayPlannerName(skill.name);
  }

  /** True once the replay handed the task over to the gateway's planner. */
  get handedOverToPlanner(): boolean {
    return this.handedOver;
  }

  override async plan(ctx: PlanningContext): Promise<PlanDecision> {
    if (this.handedOver) return this.fallback.plan(ctx);
    const previous = this.lastActionStep;
    if (previous) {
      const result = ctx.history.find((h) => h.index === previous.taskStep)?.result;
      if (result && result.status !== 'success') return this.handOver(ctx, `step ${previous.learnedStep + 1} did not succeed (${result.errorCode ?? result.status}${result.message ? `: ${result.message}` : ''})`);
    }
    const total = this.skill.steps.length;
    if (this.next >= total) return this.finish(ctx);
    const step = this.skill.steps[this.next]!;
    const prepared = this.prepare(step, ctx);
    if ('differs' in prepared) return this.handOver(ctx, `screen differs from step ${this.next + 1}: ${prepared.differs}`);
    this.lastActionStep = { taskStep: ctx.stepIndex, learnedStep: this.next };
    this.next++;
    const decision: PlanDecision = { type: 'action', action: prepared.action, reasoning: `Replaying step ${this.next} of ${total} of the learned skill "${this.skill.name}" (no planner call).` };
    if (prepared.element) decision.elementIndex = prepared.element.index;
    return decision;
  }

  /** The action of `step` on the current screen, or why the screen is not the one it was learned on. */
  private prepare(step: LearnedStep, ctx: PlanningContext): { action: AgentAction; element?: UiElement } | { differs: string } {
    const { elements, package: pkg } = ctx.observation;
    const action = filledAction(step.action, this.values);
    if (step.target) {
      const match = findActionTarget(step.target, elements, pkg);
      if ('differs' in match) return match;
      return { action: onElement(action, step, match.element), element: match.element };
    }
    switch (action.command) {
      case 'open':
      case 'home':
      case 'input':
        return { action };
      case 'click':
      case 'long_press':
        return { differs: `step ${this.next + 1} ${action.command === 'click' ? 'taps' : 'presses'} a point (${action.x}, ${action.y}) on no element it could find again; it is not tapped blindly` };
      default:
        if (step.package !== undefined && pkg !== undefined && step.package !== pkg) return { differs: `expected ${step.package} in the foreground, but ${pkg} is` };
        return { action };
    }
  }

  /** `done` when the final screen is the learned one's; otherwise the hand over. */
  private async finish(ctx: PlanningContext): Promise<PlanDecision> {
    const { elements, package: pkg } = ctx.observation;
    const { final } = this.skill;
    if (final.package !== undefined && pkg !== undefined && final.package !== pkg) {
      return this.handOver(ctx, `the final screen differs from the learned one: expected ${final.package} in the foreground, but ${pkg} is`);
    }
    if (final.evidence) {
      const match = findActionTarget(final.evidence, elements, pkg, { compareState: false });
      if ('differs' in match) return this.handOver(ctx, `the final screen differs from the learned one: ${match.differs}`);
      const expectedText = final.evidence.text === undefined ? undefined : fillParameters(final.evidence.text, this.values);
      const what = describeActionTarget(final.evidence);
      if (final.evidence.editable && !final.evidence.password && expectedText !== undefined && match.element.text !== expectedText) {
        return this.handOver(ctx, `the final screen differs from the learned one: expected ${what} to show ${JSON.stringify(expectedText)}, but it shows ${JSON.stringify(match.element.text ?? '')}`);
      }
      if (final.evidence.checkable && !!match.element.checked !== !!final.evidence.checked) {
        return this.handOver(ctx, `the final screen differs from the learned one: expected ${what} ${final.evidence.checked ? 'checked' : 'unchecked'}, but it is not`);
      }
    }
    const summary = `Replayed the learned skill "${this.skill.name}" (${this.skill.steps.length} steps); the final screen shows what it showed when learned.`;
    return { type: 'done', summary, reasoning: summary };
  }

  /** Hands the task to the gateway's planner for this step and all later ones; the step's reasoning says why. */
  private async handOver(ctx: PlanningContext, why: string): Promise<PlanDecision> {
    this.handedOver = true;
    const decision = await this.fallback.plan(ctx);
    return { ...decision, reasoning: `${why} — handing over to the planner (${this.fallback.name}). ${decision.reasoning}` };
  }
}

/** The learned action moved to the element's current place: a tap on its centre, a swipe shifted as the element moved. */
function onElement(action: AgentAction, step: LearnedStep, element: UiElement): AgentAction {
  const [x, y] = element.center;
  switch (action.command) {
    case 'click':
    case 'long_press':
      return { ...action, x, y };
    case 'swipe': {
      const [l, t, r, b] = step.target!.bounds;
      const dx = x - Math.floor((l + r) / 2);
      const dy = y - Math.floor((t + b) / 2);
      return { ...action, x1: action.x1 + dx, y1: action.y1 + dy, x2: action.x2 + dx, y2: action.y2 + dy };
    }
    default:
      return action;
  }
}
