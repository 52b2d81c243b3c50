/**
 * The `@a2a-js/sdk` client pieces this library uses. The SDK ships CommonJS builds (`require`
 * condition) but declares its types as ES modules, which a CommonJS project cannot import by name: the
 * types are read as imports, the values loaded with `require` from the CommonJS builds.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above: the SDK's CommonJS builds */
export type { AgentCard, AgentSkill, Artifact, Message, Part, StreamResponse, Task } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
export type { Client } from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };

type Core = typeof import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' } });
type ClientModule = typeof import('@a2a-js/sdk/client', { with: { 'resolution-mode': 'import' } });

const core = require('@a2a-js/sdk') as Core;
const client = require('@a2a-js/sdk/client') as ClientModule;

export const { Role, TaskState } = core;
export const { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } = client;
