/** Test support of @mobileclaw/cluster-nats: a real nats-server with JetStream on a port of its own. */
export * from './nats-server';
