export * from './a2a.module';
export * from './a2a.options';
export * from './a2a-http.endpoint';
export * from './a2a-task-handler';
export * from './agent-card';
export * from './json-rpc-envelope';
export * from './task-mapping';
export * from './push-notification-dispatcher';
