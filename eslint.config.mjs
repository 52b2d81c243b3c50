import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Layer rules: trigger → case → domain ← infrastructure, with the composition root (apps/gateway) the
 * only place that sees every layer. A wrong import fails lint. Tags live in each package.json under
 * "nx.tags", in two dimensions: `type:` (the layer) and `scope:` (which side of the wire: gateway,
 * phone, or shared by both; the composition root and the tests have no scope, they see both). Third-party packages that belong to one layer are banned in the others.
 */
const NODE_IO = ['node:net', 'net', 'node:fs', 'fs', 'node:http', 'http', 'node:https', 'https', 'node:child_process', 'child_process', 'node:dgram', 'dgram', 'node:tls', 'tls'];
const ADAPTER_PACKAGES = ['better-sqlite3', 'openai', 'sharp', 'ws', '@nestjs/platform-*', 'express', 'nestjs-pino', 'pino', 'pino-http'];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/out-tsc/**', '.nx/**', 'coverage/**', 'test-output/**', '.stryker-tmp*/**', 'reports/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: ['@nestjs/*', ...ADAPTER_PACKAGES] },
            { sourceTag: 'type:protocol', onlyDependOnLibsWithTags: ['type:protocol'], bannedExternalImports: ['@nestjs/*', ...ADAPTER_PACKAGES] },
            { sourceTag: 'type:case', onlyDependOnLibsWithTags: ['type:domain', 'type:case'], bannedExternalImports: ADAPTER_PACKAGES },
            { sourceTag: 'type:trigger', onlyDependOnLibsWithTags: ['type:domain', 'type:case', 'type:trigger'], bannedExternalImports: ['better-sqlite3', 'openai', 'sharp'] },
            // type:phone is reachable only from phone-side adapters (the ADB bridge): the scope rules keep gateway-side ones away from it.
            { sourceTag: 'type:infrastructure', onlyDependOnLibsWithTags: ['type:domain', 'type:protocol', 'type:infrastructure', 'type:phone'], bannedExternalImports: ['@nestjs/swagger', '@nestjs/terminus', 'class-validator', 'class-transformer'] },
            { sourceTag: 'type:phone', onlyDependOnLibsWithTags: ['type:protocol', 'type:phone'], bannedExternalImports: ['@nestjs/*'] },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:web', 'type:domain'], bannedExternalImports: ['*'] },
            // The client SDK ships to business systems: it speaks the public wire (A2A, REST) and imports no gateway library.
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:client'], bannedExternalImports: ['better-sqlite3', 'openai', 'sharp', '@nestjs/platform-*', '@nestjs/core', 'express'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'] },
            { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['*'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
            { sourceTag: 'scope:phone', onlyDependOnLibsWithTags: ['scope:phone', 'scope:shared'] },
            { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:client'] },
          ],
        },
      ],
    },
  },
  {
    // CommonJS configuration files and preloads load modules with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The domain is the model only: no transport, no I/O.
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['libs/domain/src/**/*.spec.ts', 'libs/domain/src/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@nestjs/*', 'node:*', ...NODE_IO, ...ADAPTER_PACKAGES], message: 'The domain layer does no I/O and uses no Nest transport.' }] }],
    },
  },
  {
    // Case layer: orchestration through ports only.
    files: ['libs/case/*/src/**/*.ts'],
    ignores: ['libs/case/*/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...NODE_IO, ...ADAPTER_PACKAGES], message: 'The case layer talks to ports, not sockets, files or SQL.' }] }],
    },
  },
];
