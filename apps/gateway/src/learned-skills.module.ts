import { Module, type DynamicModule } from '@nestjs/common';
import { join } from 'node:path';
import { Planner, LearnedSkillStore } from '@mobileclaw/domain';
import { DEFAULT_TASK_CASE_OPTIONS, LearnedSkills, TaskService } from '@mobileclaw/case-tasks';
import { WorkspaceLearnedSkillStore } from '@mobileclaw/skills-folder';

/** Where learned skills go and how long their replays may run. */
export interface GatewayLearnedSkillsOptions {
  /** The data folder: skills are saved in `<dataDir>/skills`, the workspace root the skills folder source watches. */
  dataDir: string;
  /** The task step budget when none is given (`MOBILECLAW_TASK_MAX_STEPS`): a replay gets at least this many. */
  defaultMaxSteps: number;
  /** Register {@link LearnedSkills} globally (the gateway does), for the REST controller. */
  isGlobal?: boolean;
}

/**
 * Skills learned from tasks: {@link LearnedSkills} over the gateway's `TaskService` and `Planner` (the
 * planner a replay hands over to), saving into the workspace skills root through
 * {@link WorkspaceLearnedSkillStore}. Needs the task module and the planner's provider (global).
 */
@Module({})
export class GatewayLearnedSkillsModule {
  static forRoot(options: GatewayLearnedSkillsOptions): DynamicModule {
    return {
      module: GatewayLearnedSkillsModule,
      global: options.isGlobal ?? false,
      providers: [
        { provide: LearnedSkillStore, useFactory: () => new WorkspaceLearnedSkillStore(join(options.dataDir, 'skills')) },
        {
          provide: LearnedSkills,
          inject: [TaskService, Planner, LearnedSkillStore],
          useFactory: (tasks: TaskService, planner: Planner, store: LearnedSkillStore) =>
            new LearnedSkills(tasks, planner, store, { defaultMaxSteps: options.defaultMaxSteps, maxStepsLimit: DEFAULT_TASK_CASE_OPTIONS.maxStepsLimit }),
        },
      ],
      exports: [LearnedSkills],
    };
  }
}
