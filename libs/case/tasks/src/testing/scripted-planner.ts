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
