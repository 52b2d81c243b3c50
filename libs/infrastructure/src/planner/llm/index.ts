export * from './llm-planner.options';
export * from './coordinate-space';
export * from './planner-tools';
export * from './tool-call-decoder';
export * from './planner-prompt';
export * from './screenshot-downscale';
export * from './chat-completion-client';
export * from './llm-planner';
