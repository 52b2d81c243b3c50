/** Path of the live event socket on the gateway's HTTP server. */
export const EVENTS_SOCKET_PATH = '/ws/events';

/** Largest message a client may send, bytes (the socket's `maxPayload`: a larger one closes it with 1009). */
export const EVENTS_SOCKET_MAX_MESSAGE_BYTES = 64 * 1024;

/** Settings of the live event socket. */
export interface EventsSocketOptions {
  /** When set, a client needs it as `Authorization: Bearer <token>` or `?access_token=` (the REST API's token). */
  apiToken?: string;
  /**
   * Browser origins allowed besides the gateway's own and loopback hosts: host names (any scheme and
   * port) or origins (`https://app.example.com:8443`). The composition root passes the REST API's CORS origins.
   */
  allowedOrigins: string[];
  /** Without `apiToken`, host names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`); a socket opened with another `Host` is closed with 4403. */
  allowedHosts?: string[];
  /** Bytes a client may leave unsent before it is closed as too slow (1013). Default 4 MiB. */
  maxBufferedBytes: number;
  /** Interval of WebSocket pings, ms; a client that has not answered the previous one is dropped. Default 30 000. */
  pingIntervalMs: number;
}

export const DEFAULT_EVENTS_SOCKET_OPTIONS: EventsSocketOptions = {
  allowedOrigins: [],
  maxBufferedBytes: 4 * 1024 * 1024,
  pingIntervalMs: 30_000,
};

/** DI token of the {@link EventsSocketOptions}. */
export const EVENTS_SOCKET_OPTIONS = Symbol('EVENTS_SOCKET_OPTIONS');
