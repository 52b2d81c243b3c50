import { Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { Planner } from '@mobileclaw/domain';

/**
 * Health indicator `planner`: tasks can be planned. Up with the planner's name, e.g. `{status: 'up',
 * name: 'llm:qwen-vl-max'}` (an LLM planner's settings were validated when the gateway started); down
 * as `{status: 'down', message: 'no planner is configured'}` when the host provides none. Never throws.
 */
@Injectable()
export class PlannerHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Optional() private readonly planner?: Planner,
  ) {}

  check<const Key extends string>(key: Key): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    return this.planner ? session.up({ name: this.planner.name }) : session.down({ message: 'no planner is configured' });
  }
}
