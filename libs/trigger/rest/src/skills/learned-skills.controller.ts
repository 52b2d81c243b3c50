import { Body, Controller, HttpCode, Optional, Param, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiAcceptedResponse, ApiBody, ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { MobileClawError } from '@mobileclaw/domain';
import { LearnedSkills, type SavedSkill } from '@mobileclaw/case-tasks';
import { ApiTokenGuard } from '../http/api-token.guard';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { validateDto } from '../http/validation';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { TaskSchema } from '../openapi/task.schemas';
import { toTaskResource, type TaskResource } from '../tasks/task.resource';
import { ReplaySkillDto, SaveSkillDto } from './learned-skill.dto';
import { SavedSkillAnswerSchema } from './learned-skill.schemas';

/** The learned-skills service, or 404 `NOT_FOUND` on a host without it. */
function required(skills: LearnedSkills | undefined): LearnedSkills {
  if (!skills) throw new MobileClawError('NOT_FOUND', 'learned skills are not enabled on this gateway');
  return skills;
}

/**
 * Saving a completed task as a SKILL.md skill (the case layer's {@link LearnedSkills}; without that
 * provider it answers 404 `NOT_FOUND`). Errors are problem details with a stable `code`.
 */
@ApiTags('tasks')
@ApiProblemResponses('UNAUTHORIZED')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/tasks')
export class TaskSkillController {
  constructor(@Optional() private readonly skills?: LearnedSkills) {}

  /**
   * `POST /api/tasks/:taskId/skill {name?, description?}` → 201 `{skill: {name, description, location, parameters, steps}}`.
   * @throws VALIDATION_FAILED (400: the body, a bad name or description), TASK_NOT_FOUND (404),
   *   TASK_STATE_CONFLICT (409: not completed, or no action), SKILL_EXISTS (409), STORAGE_ERROR (503).
   */
  @Post(':taskId/skill')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Save a completed task as a skill',
    description:
      'Writes `<dataDir>/skills/<name>/SKILL.md`: the task\'s actions with each target recorded by what identifies it on screen, typed texts as parameters (a password never written), readable steps in the body. The skills folder lists it like any other skill.',
  })
  @ApiParam({ name: 'taskId', description: 'A completed task\'s id.', format: 'uuid' })
  @ApiBody({ type: SaveSkillDto, required: false })
  @ApiCreatedResponse({ type: SavedSkillAnswerSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'TASK_NOT_FOUND', 'TASK_STATE_CONFLICT', 'SKILL_EXISTS', 'STORAGE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async save(@Param('taskId') taskId: string, @Body() body: unknown): Promise<{ skill: SavedSkill }> {
    const dto = validateDto(SaveSkillDto, body ?? {});
    return { skill: await required(this.skills).save(taskId, { name: dto.name, description: dto.description }) };
  }
}

/**
 * Replaying a learned skill on a phone without a model (the case layer's {@link LearnedSkills}; without
 * that provider it answers 404 `NOT_FOUND`). Errors are problem details with a stable `code`.
 */
@ApiTags('skills')
@ApiProblemResponses('UNAUTHORIZED')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/skills')
export class SkillsController {
  constructor(@Optional() private readonly skills?: LearnedSkills) {}

  /**
   * `POST /api/skills/:name/replay {deviceId, arguments?}` → 202 the task (planner `replay:<name>`), `Location` header.
   * @throws VALIDATION_FAILED (400), TOOL_NOT_FOUND (404: no learned skill of that name), SKILL_INVALID (422: its SKILL.md is no
   *   learned skill any more, e.g. edited by hand), DEVICE_NOT_FOUND (404),
   *   DEVICE_DISCONNECTED (503), DEVICE_BUSY (409, the phone's queue is full), SHUTTING_DOWN (503).
   */
  @Post(':name/replay')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Replay a learned skill on a phone',
    description:
      'Starts a task whose planner is `replay:<name>`: the learned steps run without a model call while each screen shows the learned target; where one differs, the gateway\'s planner takes over and the step\'s reasoning says why. It completes only on a final screen like the learned one.',
  })
  @ApiParam({ name: 'name', description: 'The learned skill\'s name.', example: 'browser-address' })
  @ApiBody({ type: ReplaySkillDto })
  @ApiAcceptedResponse({ type: TaskSchema, description: 'The task, `running` or `queued`.', headers: { Location: { description: 'The task\'s URL.', schema: { type: 'string' } } } })
  @ApiProblemResponses('VALIDATION_FAILED', 'TOOL_NOT_FOUND', 'SKILL_INVALID', 'DEVICE_NOT_FOUND', 'DEVICE_BUSY', 'DEVICE_DISCONNECTED', 'SHUTTING_DOWN', 'STORAGE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async replay(@Param('name') name: string, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<TaskResource> {
    const dto = validateDto(ReplaySkillDto, body);
    const task = await required(this.skills).replay(name, { deviceId: dto.deviceId, arguments: dto.arguments });
    response.setHeader('Location', `/api/tasks/${task.taskId}`);
    return toTaskResource(task);
  }

}
