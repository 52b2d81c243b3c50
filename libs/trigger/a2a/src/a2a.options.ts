import type { PushDeliverySettings } from './push-notification-dispatcher';

/** Settings of the A2A face. */
export interface A2aOptions {
  /** When set, the JSON-RPC endpoint needs `Authorization: Bearer <apiToken>` (the REST API's token); the agent card stays public. */
  apiToken?: string;
  /** Without an API token, the `Host` names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`); the REST API's rule. */
  allowedHosts?: string[];
  /** The gateway's URL as callers reach it (no trailing slash); undefined = the scheme and host of each request. */
  publicUrl?: string;
  /** The gateway's version, shown on the agent card. */
  version: string;
  /** Path of the JSON-RPC endpoint. Default `/a2a`. */
  path?: string;
  /** Push notification delivery; each absent setting takes its default (`DEFAULT_PUSH_DELIVERY`). */
  push?: Partial<PushDeliverySettings>;
}

/** DI token of the {@link A2aOptions}. */
export const A2A_OPTIONS = Symbol('A2A_OPTIONS');

/** Largest JSON-RPC request body, in bytes (as the REST API's JSON bodies). */
export const A2A_BODY_LIMIT_BYTES = 1024 * 1024;
