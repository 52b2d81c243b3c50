export * from './gateway-config';
export * from './llm-environment';
export * from './gateway.module';
export * from './gateway-app';
