export * from './frames';
export * from './line-frame-decoder';
export * from './decode-frame';
export * from './describe-json-value';
