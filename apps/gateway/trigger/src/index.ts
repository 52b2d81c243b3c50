export * from './gateway-api.module';
export * from './devices/devices.controller';
export * from './devices/command.dto';
export * from './http/api-token.guard';
export * from './http/problem-details.filter';
export * from './http/validation';
export * from './http/health.controller';
