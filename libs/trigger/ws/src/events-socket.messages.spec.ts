import { MobileClawError } from '@mobileclaw/domain';
import { isUnreadable, parseClientMessage, socketError } from './events-socket.messages';

const errorOf = (text: string) => {
  const parsed = parseClientMessage(text);
  if (!isUnreadable(parsed)) throw new Error(`read ${text}`);
  return { id: parsed.id, code: parsed.error.code, message: parsed.error.message, fieldErrors: parsed.error.fieldErrors };
};

describe('parseClientMessage', () => {
  it.each([
    [{ type: 'subscribe', devices: '*' }],
    [{ type: 'subscribe', v: 1, id: 'a', devices: ['sim-1'], tasks: [{ taskId: 't1' }, { taskId: 't2', since: 7 }], screens: ['sim-1'] }],
    [{ type: 'unsubscribe', id: 3, tasks: ['t1'] }],
    [{ type: 'cancel', id: 0, taskId: 't1' }],
    [{ type: 'approve', id: 'x', taskId: 't1', approved: false }],
  ])('reads %j as sent', (message) => {
    expect(parseClientMessage(JSON.stringify(message))).toEqual(message);
  });

  it('names each invalid field with its dotted path, and keeps a valid id for the answer', () => {
    expect(errorOf(JSON.stringify({ type: 'subscribe', id: 'q', tasks: [{ taskId: '', since: 1.5 }], screens: 'sim-1' }))).toEqual({
      id: 'q',
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/^invalid subscribe message: /),
      fieldErrors: [
        { field: 'tasks.0.taskId', message: 'Too small: expected string to have >=1 characters' },
        { field: 'tasks.0.since', message: 'Invalid input: expected int, received number' },
        { field: 'screens', message: 'Invalid input: expected array, received string' },
      ],
    });
  });

  it.each([
    ['', 'not valid JSON: send one JSON object per text message'],
    ['null', 'a message must be a JSON object with a "type"'],
    ['"subscribe"', 'a message must be a JSON object with a "type"'],
    ['{"id":"k"}', 'unknown message type null; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":"toString"}', 'unknown message type "toString"; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":"cancel","id":"k","taskId":"t","v":2}', 'invalid cancel message: v: Invalid input: expected 1'],
  ])('refuses %s: %s', (text, message) => {
    expect(errorOf(text).message).toBe(message);
  });

  it('refuses more than 100 ids in one message', () => {
    const devices = Array.from({ length: 101 }, (_, i) => `p${i}`);
    expect(errorOf(JSON.stringify({ type: 'subscribe', devices })).fieldErrors).toEqual([{ field: 'devices', message: 'Invalid input' }]);
  });
});

describe('socketError', () => {
  it('keeps a catalog error\'s code, message and field errors; anything else is INTERNAL_ERROR', () => {
    expect(socketError(new MobileClawError('TASK_NOT_FOUND', 'no task t'))).toEqual({ code: 'TASK_NOT_FOUND', message: 'no task t' });
    expect(socketError(new MobileClawError('VALIDATION_FAILED', 'bad', { fieldErrors: [{ field: 'x', message: 'y' }] }))).toEqual({ code: 'VALIDATION_FAILED', message: 'bad', fieldErrors: [{ field: 'x', message: 'y' }] });
    expect(socketError(new Error('boom'))).toEqual({ code: 'INTERNAL_ERROR', message: 'boom' });
  });
});
