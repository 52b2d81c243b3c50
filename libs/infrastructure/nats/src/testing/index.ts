/** Test support of @mobileclaw/cluster-nats: a real nats-server with JetStream on a port of its own, and a logger that keeps its lines. */
export * from './nats-server';
export * from './recording-logger';
