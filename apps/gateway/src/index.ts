export * from './gateway-config';
export * from './llm-environment';
export * from './gateway.module';
export * from './gateway-app';
export * from './mcp-endpoint';
export * from './mcp-stdio-bridge';
export { MCP_DESKTOP_CONFIG } from './cli';
export * from './adb-command';
