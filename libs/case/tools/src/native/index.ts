export * from './native-tool-refs';
export * from './native-phone-tool-source';
export * from './gateway-tool-source';
