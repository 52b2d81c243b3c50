import { Role, TaskState, jsonRpcHandler } from './a2a-sdk';

it('loads the SDK', () => {
  expect(TaskState.TASK_STATE_INPUT_REQUIRED).toBe(6);
  expect(Role.ROLE_AGENT).toBe(2);
  expect(typeof jsonRpcHandler).toBe('function');
});
