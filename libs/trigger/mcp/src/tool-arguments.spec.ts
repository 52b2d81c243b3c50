import * as z from 'zod/v4';
import { argumentsError } from './tool-arguments';

describe('argumentsError', () => {
  const schema = z.object({ goal: z.string().min(1), maxSteps: z.number().int().optional() }).strict();
  const issuesOf = (value: unknown) => schema.safeParse(value).error!.issues;

  it('names each field, an unknown argument and what the tool takes', () => {
    const err = argumentsError('run_task', issuesOf({ goal: '', maxSteps: 1.5, approved: true }), ['goal', 'maxSteps']);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fieldErrors).toEqual([
      { field: 'goal', message: 'Too small: expected string to have >=1 characters' },
      { field: 'maxSteps', message: 'Invalid input: expected int, received number' },
      { field: 'approved', message: 'unknown argument; run_task takes goal, maxSteps' },
    ]);
    expect(err.message).toBe(
      'invalid arguments for run_task: goal: Too small: expected string to have >=1 characters; maxSteps: Invalid input: expected int, received number; approved: unknown argument; run_task takes goal, maxSteps',
    );
  });

  it('calls arguments that are not an object "(arguments)"', () => {
    expect(argumentsError('run_task', issuesOf(null), []).fieldErrors).toEqual([{ field: '(arguments)', message: 'Invalid input: expected object, received null' }]);
  });

  it('lists at most 10 field errors and counts the rest', () => {
    const extra = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`a${i}`, i]));
    const err = argumentsError('t', issuesOf({ goal: 'x', ...extra }), []);
    expect(err.fieldErrors).toHaveLength(10);
    expect(err.fieldErrors![0]).toEqual({ field: 'a0', message: 'unknown argument; t takes no arguments' });
    expect(err.message.endsWith('; and 3 more')).toBe(true);
  });
});
