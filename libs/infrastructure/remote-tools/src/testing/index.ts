/** Local remote-tool servers for tests: a `/tools/invoke` catalog server and an A2A agent. */
export * from './tool-catalog-server';
export * from './a2a-tool-agent';
