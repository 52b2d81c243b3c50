/**
 * `@a2a-js/sdk`'s own client for the tests: types read as ES module declarations, values from the
 * SDK's CommonJS build (the test project compiles to CommonJS).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's CommonJS build, see above */
export type { Client } from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
export type { Message, StreamResponse, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };

type ClientModule = typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' } });
type CoreModule = typeof import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' } });

export const { ClientFactory } = require('@a2a-js/sdk/client') as ClientModule;
export const { Role, TaskState } = require('@a2a-js/sdk') as CoreModule;
