import { MobileClawError } from '@mobileclaw/domain';
import { validateDto } from '../http/validation';
import { TakeoverActionDto, takeoverCommand } from './takeover.dto';

/** The field errors `body` is refused with, or the phone command it becomes. */
function read(body: Record<string, unknown>): unknown {
  try {
    const command = takeoverCommand(validateDto(TakeoverActionDto, { holderId: 'h1', ...body }));
    return 'fieldErrors' in command ? { fieldErrors: command.fieldErrors } : command.action;
  } catch (err) {
    if (!(err instanceof MobileClawError)) throw err;
    return { code: err.code, fieldErrors: err.fieldErrors };
  }
}

describe('TakeoverActionDto', () => {
  it('turns each action type into its phone command', () => {
    expect(read({ type: 'tap', x: 10, y: 20 })).toEqual({ command: 'click', x: 10, y: 20 });
    expect(read({ type: 'swipe', from: { x: 1, y: 2 }, to: { x: 3, y: 4 }, durationMs: 300 })).toEqual({ command: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4, durationMs: 300 });
    expect(read({ type: 'swipe', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } })).toEqual({ command: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4 });
    expect(read({ type: 'type', text: 'hi' })).toEqual({ command: 'input', text: 'hi' });
  });

  it('refuses null in every action field with VALIDATION_FAILED for that field, never as an absent value', () => {
    expect(read({ type: 'tap', x: null, y: 5 })).toEqual({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'x', message: 'x must be an integer number' }] });
    expect(read({ type: 'tap', x: 5, y: null })).toEqual({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'y', message: 'y must be an integer number' }] });
    expect(read({ type: 'swipe', from: { x: 1, y: 2 }, to: { x: 3, y: 4 }, durationMs: null })).toEqual({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'durationMs', message: 'durationMs must be an integer number' }],
    });
    expect(read({ type: 'type', text: null })).toEqual({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'text', message: 'text must be a string' }] });
    expect(read({ type: 'swipe', from: null, to: { x: 3, y: 4 } })).toEqual({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'from', message: 'nested property from must be either object or array' }],
    });
    expect(read({ type: 'swipe', from: { x: 1, y: 2 }, to: null })).toEqual({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'to', message: 'nested property to must be either object or array' }],
    });
    expect(read({ type: 'home', text: null })).toEqual({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'text', message: 'text must be a string' }] });
  });

  it('still names missing and foreign fields of the type', () => {
    expect(read({ type: 'tap', y: 5 })).toEqual({ fieldErrors: [{ field: 'x', message: 'x is required for tap' }] });
    expect(read({ type: 'back', x: 1 })).toEqual({ fieldErrors: [{ field: 'x', message: 'x is not allowed for back' }] });
  });
});
