/**
 * `@a2a-js/sdk` 0.3 (installed as `a2a-sdk-v03`), the client an A2A 0.3 caller runs: types read as
 * ES module declarations, values from the SDK's CommonJS build (the test project compiles to CommonJS).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's CommonJS build, see above */
export type { Client as ClientV03 } from 'a2a-sdk-v03/client' with { 'resolution-mode': 'import' };
export type { AgentCard as AgentCardV03, Message as MessageV03, Task as TaskV03 } from 'a2a-sdk-v03' with { 'resolution-mode': 'import' };

type ClientModule = typeof import('a2a-sdk-v03/client', { with: { 'resolution-mode': 'import' } });

export const { ClientFactory: ClientFactoryV03 } = require('a2a-sdk-v03/client') as ClientModule;
