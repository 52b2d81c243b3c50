import { IsBoolean, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** `POST /api/tools/:name/invoke` body. */
@ApiSchema({ name: 'ToolInvocation' })
export class ToolInvocationDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The tool\'s arguments, checked against its `inputSchema` before any call; default `{}`.', example: { city: 'Lyon' } })
  @IsOptional()
  @IsObject()
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 256,
    description: 'Your id for this call: the same id again (for the same tool) answers the first call\'s result without running it twice, also after a gateway restart.',
    example: 'order-4711-lookup',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  toolCallId?: string;

  @ApiPropertyOptional({ description: 'True when a person approved this call: `ACTION` tools need it (else 403 `APPROVAL_REQUIRED`).' })
  @IsOptional()
  @IsBoolean()
  approved?: boolean;
}
