import { randomUUID } from 'node:crypto';
import { ClientFactory, Role, TaskState, type Message } from '../support/a2a-sdk-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-a2a-list-');

function userMessage(text: string, contextId: string): Message {
  return { messageId: randomUUID(), contextId, taskId: '', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

describe('A2A ListTasks (real gateway)', () => {
  it('pages a filter over several pages, each page with totalSize = the tasks the filter selects', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const a2a = await new ClientFactory().createFromUrl(gatewayUrl(gw, ''));
    const started: string[] = [];
    for (const contextId of ['order-7', 'order-7', 'other', 'order-7', 'order-7', 'order-7']) {
      const task = (await a2a.sendMessage({ tenant: '', message: userMessage('Turn on Wi-Fi', contextId), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true }, metadata: undefined })) as { id: string };
      if (contextId === 'order-7') started.push(task.id);
    }

    const pages: { ids: string[]; totalSize: number; pageSize: number }[] = [];
    let pageToken = '';
    do {
      const page = await a2a.listTasks({ tenant: '', contextId: 'order-7', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 2, pageToken, historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: false });
      pages.push({ ids: page.tasks.map((t) => t.id), totalSize: page.totalSize, pageSize: page.pageSize });
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    expect(pages.map((p) => p.ids.length)).toStrictEqual([2, 2, 1]);
    expect(pages.map((p) => p.totalSize)).toStrictEqual([5, 5, 5]);
    // Every task of the conversation once (tasks created in the same ms are ordered by id, not by start).
    expect(pages.flatMap((p) => p.ids).sort()).toStrictEqual([...started].sort());

    const everything = await a2a.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 1, pageToken: '', historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: false });
    expect([everything.tasks.length, everything.totalSize]).toStrictEqual([1, 6]);
  });
});
