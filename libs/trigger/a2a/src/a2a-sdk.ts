/**
 * The `@a2a-js/sdk` pieces this face uses. The SDK ships CommonJS builds (`require` condition) but
 * declares its types as ES modules, which a CommonJS project cannot import by name: the types are read
 * as imports, the values loaded with `require` from the CommonJS builds.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above: the SDK's CommonJS builds */
export type * from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
export type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server' with { 'resolution-mode': 'import' };

import type { Role as RoleEnum, TaskState as TaskStateEnum } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
export type Role = RoleEnum;
export type TaskState = TaskStateEnum;

type Core = typeof import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' } });
type Errors = typeof import('@a2a-js/sdk/errors', { with: { 'resolution-mode': 'import' } });
type ExpressServer = typeof import('@a2a-js/sdk/server/express', { with: { 'resolution-mode': 'import' } });
type LegacyExpressServer = typeof import('@a2a-js/sdk/compat/v0_3/server/express', { with: { 'resolution-mode': 'import' } });

const core = require('@a2a-js/sdk') as Core;
const errors = require('@a2a-js/sdk/errors') as Errors;
const expressServer = require('@a2a-js/sdk/server/express') as ExpressServer;
const legacyExpressServer = require('@a2a-js/sdk/compat/v0_3/server/express') as LegacyExpressServer;

export const { Role, TaskState, AgentCard: AgentCardCodec, StreamResponse: StreamResponseCodec } = core;
export const { RequestMalformedError, TaskNotFoundError, TaskNotCancelableError, UnsupportedOperationError, PushNotificationNotSupportedError, ExtendedAgentCardNotConfiguredError } = errors;
export const { jsonRpcHandler, UserBuilder } = expressServer;
export const { legacyAgentCardRouter } = legacyExpressServer;
