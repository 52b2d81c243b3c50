export * from './gateway-config';
export * from './gateway.module';
export * from './gateway-app';
