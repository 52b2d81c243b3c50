import { Module, type DynamicModule } from '@nestjs/common';
import { join } from 'node:path';
import { Planner, LearnedSkillStore } from '@mobileclaw/domain';
import { DEFAULT_TASK_CASE_OPTIONS, LearnedSkills, TaskService } from '@mobileclaw/case-tasks';
import { ToolRegistry, formatToolRef } from '@mobileclaw/case-tools';
import { WorkspaceLearnedSkillStore } from '@mobileclaw/skills-folder';

/** A tool of any source (shadowed ones too) listed as `name`, as `kind:id/name`: a saved skill may not take its name. */
function toolNameHolder(registry: ToolRegistry): (name: string) => Promise<string | undefined> {
  return async (name) => {
    const holder = (await registry.list()).find((entry) => entry.exposedName === name || entry.name === name || entry.originalName === name);
    return holder && formatToolRef(holder);
  };
}

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
          inject: [TaskService, Planner, LearnedSkillStore, { token: ToolRegistry, optional: true }],
          useFactory: (tasks: TaskService, planner: Planner, store: LearnedSkillStore, registry: ToolRegistry | undefined) =>
            new LearnedSkills(tasks, planner, store, { defaultMaxSteps: options.defaultMaxSteps, maxStepsLimit: DEFAULT_TASK_CASE_OPTIONS.maxStepsLimit }, undefined, registry && toolNameHolder(registry)),
        },
      ],
      exports: [LearnedSkills],
    };
  }
}
