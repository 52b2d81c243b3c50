/**
 * `@mobileclaw/domain/testing`: what adapters' and cases' tests share — the {@link TaskRepository}
 * contract suite and task/step fixtures. Test-only (it uses Jest's globals), never imported by product
 * code, and not part of the built package: the entry exists only under the `@mobileclaw/source`
 * condition. Consumers reach these sources through node_modules and type-check them within their own
 * spec project (the domain's model types still come from its referenced build), so their
 * tsconfig.spec.json needs no reference beyond `libs/domain/tsconfig.lib.json`.
 */
export * from './task-fixtures';
export * from './task-repository-contract';
export * from './rejections';
export * from './idempotency-store-contract';
export * from './push-notification-config-store-contract';
export * from './tool-source-contract';
export * from './push-delivery-outbox-contract';
export * from './tool-call-ledger-contract';
export * from './memory-index-contract';
export * from './memory-files-contract';
export * from './settable-clock';
