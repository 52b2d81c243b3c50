import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { isMobileClawError } from '@mobileclaw/domain';
import { describeFrame } from './frame-text';
import { echoOf } from './mcp-request-guard';
import { jpegBudget } from './phone-tools';
import { taskResourceUri, screenResourceUri } from './resource-updates';
import type { PhoneToolDeps } from './tool-context';

/**
 * Registers the resources: each phone's current screen (`mobileclaw://devices/{deviceId}/screen`: a
 * JPEG and the element list; reading it observes the phone) and each task's timeline
 * (`mobileclaw://tasks/{taskId}`: the task and its steps as JSON).
 */
export function registerPhoneResources(deps: PhoneToolDeps, limits: { maxLongSidePx: number; maxBytes: number }): void {
  const { server, control, phones, tasks } = deps;
  server.registerResource(
    'device-screen',
    new ResourceTemplate('mobileclaw://devices/{deviceId}/screen', {
      list: async () => ({
        resources: (await phones.listDevices())
          .filter((d) => d.status !== 'offline')
          .map((d) => ({ uri: screenResourceUri(d.deviceId), name: `${d.deviceId} screen`, mimeType: 'image/jpeg' })),
      }),
    }),
    { title: 'Phone screen', description: "A phone's current screen: a JPEG screenshot and its numbered element list.", mimeType: 'image/jpeg' },
    async (uri, variables) => {
      const deviceId = decodeURIComponent(String(variables['deviceId']));
      const frame = await readOrThrow(uri.href, () => control.observe(deviceId, { image: { maxLongSidePx: limits.maxLongSidePx, maxBytes: jpegBudget(limits.maxBytes) } }));
      return {
        contents: [
          { uri: uri.href, mimeType: frame.image!.mime, blob: frame.image!.base64 },
          { uri: uri.href, mimeType: 'text/plain', text: describeFrame(frame) },
        ],
      };
    },
  );
  server.registerResource(
    'task-timeline',
    new ResourceTemplate('mobileclaw://tasks/{taskId}', { list: undefined }),
    { title: 'Task timeline', description: 'A task of the agent: goal, status, summary or error, and every step (observation, plan, result, timings).', mimeType: 'application/json' },
    async (uri, variables) => {
      const task = await readOrThrow(uri.href, () => tasks.get(decodeURIComponent(String(variables['taskId']))));
      return { contents: [{ uri: taskResourceUri(task.taskId), mimeType: 'application/json', text: JSON.stringify(task) }] };
    },
  );
}

/**
 * Runs a resource read; an unknown phone or task becomes the protocol's resource-not-found error, any
 * other catalog failure an internal error whose message carries the stable code (e.g. `TIMEOUT: …`),
 * URI and message cut to 200 characters.
 */
async function readOrThrow<T>(uri: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    // The URI and an id in the message are the client's: quoted at most 200 characters each.
    if (isMobileClawError(err, 'DEVICE_NOT_FOUND') || isMobileClawError(err, 'TASK_NOT_FOUND')) throw new ResourceNotFoundError(echoOf(uri), `${err.code}: ${echoOf(err.message)}`);
    if (isMobileClawError(err)) throw new ProtocolError(ProtocolErrorCode.InternalError, `${err.code}: ${echoOf(err.message)}`);
    throw err;
  }
}
