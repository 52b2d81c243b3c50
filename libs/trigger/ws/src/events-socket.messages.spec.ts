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
    ['{"id":"k"}', '"type" must be a string, got nothing; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":null}', '"type" must be a string, got null; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":["subscribe"]}', '"type" must be a string, got an array; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":{"a":1}}', '"type" must be a string, got an object; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":5}', '"type" must be a string, got a number; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":true}', '"type" must be a string, got a boolean; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":"toString"}', 'unknown message type "toString"; expected one of subscribe, unsubscribe, cancel, approve'],
    ['{"type":"cancel","id":"k","taskId":"t","v":2}', 'invalid cancel message: v: Invalid input: expected 1'],
  ])('refuses %s: %s', (text, message) => {
    expect(errorOf(text).message).toBe(message);
  });

  it('refuses a "type" nested 30,000 levels deep by its kind, where JSON.stringify would overflow the stack', () => {
    const depth = 30_000;
    expect(errorOf(`{"id":"d","type":${'['.repeat(depth)}${']'.repeat(depth)}}`)).toEqual({
      id: 'd',
      code: 'VALIDATION_FAILED',
      message: '"type" must be a string, got an array; expected one of subscribe, unsubscribe, cancel, approve',
      fieldErrors: [{ field: 'type', message: 'must be one of subscribe, unsubscribe, cancel, approve' }],
    });
  });

  it('quotes at most 64 characters of an unknown type (a 65 KB type is not echoed back)', () => {
    expect(errorOf(JSON.stringify({ type: 'x'.repeat(65_000) })).message).toBe(`unknown message type "${'x'.repeat(64)}…"; expected one of subscribe, unsubscribe, cancel, approve`);
    expect(errorOf(JSON.stringify({ type: 'y'.repeat(64) })).message).toBe(`unknown message type "${'y'.repeat(64)}"; expected one of subscribe, unsubscribe, cancel, approve`);
  });

  it('names unknown fields cut to 64 characters, at most 3 of them', () => {
    const one = errorOf(JSON.stringify({ type: 'cancel', id: 1, taskId: 't', ['k'.repeat(70_000)]: 1 }));
    expect(one.fieldErrors).toEqual([{ field: '(message)', message: `Unrecognized key: "${'k'.repeat(64)}…"` }]);
    expect(one.message).toBe(`invalid cancel message: (message): Unrecognized key: "${'k'.repeat(64)}…"`);
    const keys = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`extra${i}`, i]));
    expect(errorOf(JSON.stringify({ type: 'cancel', id: 1, taskId: 't', ...keys })).fieldErrors).toEqual([
      { field: '(message)', message: 'Unrecognized keys: "extra0", "extra1", "extra2" and 4997 more' },
    ]);
  });

  it('lists at most 10 field errors and counts the rest', () => {
    const tasks = Array.from({ length: 12 }, () => ({ taskId: '' }));
    const error = errorOf(JSON.stringify({ type: 'subscribe', id: 'm', tasks }));
    expect(error.fieldErrors).toEqual(Array.from({ length: 10 }, (_, i) => ({ field: `tasks.${i}.taskId`, message: 'Too small: expected string to have >=1 characters' })));
    expect(error.message).toBe(`invalid subscribe message: ${Array.from({ length: 10 }, (_, i) => `tasks.${i}.taskId: Too small: expected string to have >=1 characters`).join('; ')}; and 2 more`);
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
