import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '@mobileclaw/domain';
import { HTTP_STATUS_BY_CODE } from '../http/problem-details.filter';
import { DeviceControllerSchema } from './device.schemas';

/** OpenAPI schema of one `{field, message}` entry of a `VALIDATION_FAILED` problem. */
@ApiSchema({ name: 'FieldError' })
export class FieldErrorSchema {
  @ApiProperty({ description: 'Dotted path of the field, e.g. `x` or `screen.width`; empty for the body itself.', example: 'y' })
  field!: string;

  @ApiProperty({ example: 'y must be an integer number' })
  message!: string;
}

/** OpenAPI schema of the RFC 9457 problem details every error answers with (see `ProblemDetails`, `toProblem`). */
@ApiSchema({ name: 'ProblemDetails', description: 'RFC 9457 problem details (`application/problem+json`) with MobileClaw\'s stable `code`.' })
export class ProblemDetailsSchema {
  @ApiProperty({ description: 'URN of the error kind: `urn:mobileclaw:error:<code>`.', example: 'urn:mobileclaw:error:VALIDATION_FAILED' })
  type!: string;

  @ApiProperty({ description: 'Short human-readable summary of the error kind.', example: 'Invalid request' })
  title!: string;

  @ApiProperty({ description: 'The HTTP status code.', type: 'integer', minimum: 400, maximum: 599, example: 400 })
  status!: number;

  @ApiProperty({ description: 'What went wrong in this occurrence.', example: 'invalid request: y: y must be an integer number' })
  detail!: string;

  @ApiProperty({ description: 'The request path (and query) that failed.', example: '/api/devices/sim-1/commands' })
  instance!: string;

  @ApiProperty({
    description: 'Stable machine-readable code (README, "Errors"), e.g. `DEVICE_BUSY`: a code of the error catalog, or `HTTP_<status>` for a client-error status the catalog has no code for.',
    anyOf: [
      { type: 'string', enum: [...ERROR_CODES] },
      { type: 'string', pattern: '^HTTP_[0-9]{3}$' },
    ],
    example: 'VALIDATION_FAILED',
  })
  code!: string;

  @ApiPropertyOptional({ description: 'The phone concerned, when there is one.' })
  deviceId?: string;

  @ApiPropertyOptional({ description: 'The command request concerned, when there is one.' })
  requestId?: string;

  @ApiPropertyOptional({ description: 'The phone\'s own error code, for `DEVICE_ERROR` (e.g. `APP_NOT_FOUND`).' })
  deviceCode?: string;

  @ApiPropertyOptional({ description: 'Every invalid field, for `VALIDATION_FAILED`.', type: () => [FieldErrorSchema] })
  errors?: FieldErrorSchema[];

  @ApiPropertyOptional({ description: 'Who holds the phone, for `DEVICE_CONTROLLED`.', type: () => DeviceControllerSchema })
  controller?: DeviceControllerSchema;
}

/**
 * Documents the error answers of a route: one `application/problem+json` response per HTTP status,
 * its schema {@link ProblemDetailsSchema} and its description the codes that answer with it,
 * e.g. `ApiProblemResponses('DEVICE_BUSY', 'STALE_FRAME')` → one 409 response "DEVICE_BUSY, STALE_FRAME".
 * Statuses come from the same table as the problem-details filter, so docs and answers cannot drift.
 */
export function ApiProblemResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = HTTP_STATUS_BY_CODE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses = [...byStatus].map(([status, statusCodes]) =>
    ApiResponse({
      status,
      description: `Problem details with \`code\` ${statusCodes.map((c) => `\`${c}\``).join(' or ')}.`,
      content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDetailsSchema) } } },
    }),
  );
  return applyDecorators(ApiExtraModels(ProblemDetailsSchema, FieldErrorSchema, DeviceControllerSchema), ...responses);
}
