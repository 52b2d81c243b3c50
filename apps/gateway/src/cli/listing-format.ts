import type { Colors } from 'picocolors/types';
import type { CommandResult, DeviceInfo } from '@mobileclaw/domain';
import type { TaskResource } from '@mobileclaw/trigger-rest';

/** Columns padded to their widest cell, two spaces apart; the last column is not padded. */
export function formatTable(header: string[], rows: string[][], colors: Colors): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [colors.bold(line(header)), ...rows.map(line)].join('\n');
}

/**
 * `mobileclaw devices`: one row per phone (id, status, model, Android version, screen in px,
 * heartbeat round trip, commands queued), and below the table why an offline phone cannot connect.
 */
export function formatDevices(devices: DeviceInfo[], colors: Colors): string {
  if (devices.length === 0) return 'no phones yet: start simulated ones with `mobileclaw sim`, or connect a phone (README, "Use your own phone")';
  const rows = devices.map((d) => [
    d.deviceId,
    d.status,
    d.model ?? '',
    d.android ?? '',
    d.screen ? `${d.screen.width}×${d.screen.height}` : '',
    d.rttMs !== undefined ? `${Math.round(d.rttMs)} ms` : '',
    String(d.queueLength),
  ]);
  const table = formatTable(['DEVICE', 'STATUS', 'MODEL', 'ANDROID', 'SCREEN', 'RTT', 'QUEUE'], rows, colors);
  const reasons = devices.filter((d) => d.statusReason).map((d) => `${d.deviceId}: ${d.statusReason}`);
  return reasons.length > 0 ? `${table}\n\n${reasons.join('\n')}` : table;
}

const GOAL_WIDTH = 60;

/** `mobileclaw tasks`: one row per task, newest first (id, status, phone, steps, created, goal). */
export function formatTasks(tasks: TaskResource[], colors: Colors): string {
  if (tasks.length === 0) return 'no tasks';
  const rows = tasks.map((t) => [
    t.taskId,
    t.status,
    t.deviceId,
    String(t.stepCount),
    t.createdAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    t.goal.length > GOAL_WIDTH ? `${t.goal.slice(0, GOAL_WIDTH - 1)}…` : t.goal,
  ]);
  return formatTable(['TASK', 'STATUS', 'DEVICE', 'STEPS', 'CREATED', 'GOAL'], rows, colors);
}

/**
 * `mobileclaw do`: `click on sim-1: success in 3 ms (queued 0 ms)` and the phone's reply data as
 * JSON, an image's base64 shortened to its size.
 */
export function formatCommandResult(result: CommandResult, colors: Colors): string {
  const head = `${result.command} on ${result.deviceId}: ${colors.green(result.status)} in ${Math.round(result.durationMs)} ms (queued ${Math.round(result.queuedMs)} ms)`;
  const data: Record<string, unknown> = { ...result.data };
  if (typeof data['base64'] === 'string') data['base64'] = `<${Buffer.byteLength(data['base64'], 'base64')} bytes; save it with \`mobileclaw screenshot\`>`;
  return Object.keys(data).length > 0 ? `${head}\n${JSON.stringify(data, null, 2)}` : head;
}
