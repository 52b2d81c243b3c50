import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVICE_EVENT_TYPES, TASK_EVENT_TYPES } from '@mobileclaw/domain';

/** docs/events-socket.md, for client authors: it must name every event type the socket sends. */
const doc = readFileSync(join(__dirname, '../../../../docs/events-socket.md'), 'utf8');

describe('docs/events-socket.md', () => {
  it.each([...TASK_EVENT_TYPES])('lists the task event type %s', (type) => {
    expect(doc).toContain(`\`${type}\``);
  });

  it.each([...DEVICE_EVENT_TYPES])('lists the device event type %s', (type) => {
    expect(doc).toContain(`\`${type}\``);
  });

  it.each(['welcome', 'reply', 'error', 'devices', 'task.end', 'screen.frame', 'screen.end'])('shows the socket\'s own message %s', (type) => {
    expect(doc).toContain(`"type":"${type}"`);
  });
});
