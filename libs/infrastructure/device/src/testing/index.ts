/** Test support of @mobileclaw/device for other projects' specs: an in-memory phone connection. */
export * from './message-transport';
