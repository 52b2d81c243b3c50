export * from './device-control.options';
export * from './device-control.service';
export * from './device-control.module';
export * from './frame-registry';
export * from './screen-frame';
export * from './control-lease-registry';
export * from './live-screen';
