export * from './errors';
export * from './commands';
export * from './results';
export * from './device';
export * from './mobileclaw.service';
export * from './task';
