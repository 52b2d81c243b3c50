import 'reflect-metadata';
import { isMobileClawError, type MobileClawError } from '@mobileclaw/domain';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { validateDto, validateQuery } from './validation';

class PointDto {
  @IsInt() @Min(0) x!: number;
  @IsInt() @Min(0) y!: number;
}

class TapDto {
  @IsString() deviceId!: string;
  @IsOptional() @IsInt() @Min(1) @Max(10) repeat?: number;
  @ValidateNested() @Type(() => PointDto) point!: PointDto;
}

/** The `{field, message}` list of the VALIDATION_FAILED error `run` throws. */
function fieldErrors(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    if (isMobileClawError(err, 'VALIDATION_FAILED')) return (err as MobileClawError).fieldErrors;
    throw err;
  }
  throw new Error('expected VALIDATION_FAILED');
}

describe('validateDto', () => {
  it('says a field that was not sent is required, also inside an object', () => {
    expect(fieldErrors(() => validateDto(TapDto, { point: { x: 3 } }))).toEqual([
      { field: 'deviceId', message: 'deviceId is required' },
      { field: 'point.y', message: 'y is required' },
    ]);
  });

  it('gives the type rule for a value of the wrong type, null included (null is never read as absent)', () => {
    expect(fieldErrors(() => validateDto(TapDto, { deviceId: null, point: { x: 'left', y: -1 } }))).toEqual([
      { field: 'deviceId', message: 'deviceId must be a string' },
      { field: 'point.x', message: 'x must be an integer number' },
      { field: 'point.y', message: 'y must not be less than 0' },
    ]);
  });

  it('checks an optional field only when it is sent', () => {
    expect(validateDto(TapDto, { deviceId: 'sim-1', point: { x: 0, y: 0 } })).toMatchObject({ deviceId: 'sim-1', point: { x: 0, y: 0 } });
    expect(fieldErrors(() => validateDto(TapDto, { deviceId: 'sim-1', repeat: 11, point: { x: 0, y: 0 } }))).toEqual([{ field: 'repeat', message: 'repeat must not be greater than 10' }]);
  });

  it('refuses a field the DTO does not have, and a body that is not an object', () => {
    expect(fieldErrors(() => validateDto(TapDto, { deviceId: 'sim-1', point: { x: 0, y: 0 }, colour: 'red' }))).toEqual([{ field: 'colour', message: 'property colour should not exist' }]);
    expect(fieldErrors(() => validateDto(TapDto, [1]))).toEqual([{ field: '', message: 'must be a JSON object' }]);
  });
});

describe('validateQuery', () => {
  it('leaves out access_token and says a missing parameter is required', () => {
    expect(fieldErrors(() => validateQuery(TapDto, { access_token: 'secret-token-0123456789', point: { x: 1, y: 1 } }))).toEqual([{ field: 'deviceId', message: 'deviceId is required' }]);
  });
});
