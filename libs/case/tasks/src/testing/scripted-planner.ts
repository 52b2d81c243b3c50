import { Planner, type PlanDecision, type PlanningContext } from '@mobileclaw/domain';

/**
 * A planner that answers from a script, one decision per step (the last one again for later steps),
 * and records what it saw.
 */
export class ScriptedPlanner extends Planner {
  readonly name = 'scripted';
  readonly seen: PlanningContext[] = [];

  constructor(private readonly script: ((ctx: PlanningContext) => PlanDecision | Promise<PlanDecision>)[]) {
    super();
  }

  override async plan(ctx: PlanningContext): Promise<PlanDecision> {
    this.seen.push(ctx);
    const next = this.script[Math.min(ctx.stepIndex, this.script.length - 1)];
    return next(ctx);
  }
}

/**
 * A planner whose first decision for the goal `held` waits until the test releases it, so that the
 * task stays running; any other goal is done at once. `planning` resolves once that decision was asked for.
 */
export function gatedPlanner(): { planner: ScriptedPlanner; planning: Promise<void>; release: (decision: PlanDecision) => void } {
  let release!: (decision: PlanDecision) => void;
  let called!: () => void;
  const planning = new Promise<void>((resolve) => (called = resolve));
  const decision = new Promise<PlanDecision>((resolve) => (release = resolve));
  const planner = new ScriptedPlanner([
    (ctx) => {
      if (ctx.goal !== 'held') return { type: 'done', summary: 'done', reasoning: 'nothing to do' };
      called();
      return decision;
    },
  ]);
  return { planner, planning, release };
}
