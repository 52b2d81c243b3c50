export * from './tool-name';
export * from './tool';
export * from './tool-invocation';
export * from './tool-source';
export * from './tool-call-ledger';
export * from './device-tool-requests';
export * from './learned-skill';
