import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Layer rules (brief: trigger → case → domain ← infrastructure). A wrong import fails lint.
 * Tags live in each package.json under "nx.tags".
 */
export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '.nx/**', 'coverage/**', 'test-output/**'] },
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
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:protocol', onlyDependOnLibsWithTags: ['type:protocol'] },
            { sourceTag: 'type:infrastructure', onlyDependOnLibsWithTags: ['type:domain', 'type:protocol', 'type:infrastructure'] },
            { sourceTag: 'type:case', onlyDependOnLibsWithTags: ['type:domain', 'type:case'] },
            { sourceTag: 'type:trigger', onlyDependOnLibsWithTags: ['type:domain', 'type:case', 'type:trigger'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:protocol', 'type:tool'] },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:web', 'type:domain'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'] },
            { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
    },
  },
  {
    // The domain is the model only: no transport, no I/O.
    files: ['libs/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'node:*', 'net', 'fs', 'http', 'https', 'child_process', 'better-sqlite3'], message: 'The domain layer does no I/O and uses no Nest transport.' },
          ],
        },
      ],
    },
  },
  {
    // Case layer: orchestration through ports only.
    files: ['apps/gateway/case/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:net', 'net', 'node:fs', 'fs', 'better-sqlite3', 'node:http', 'http'], message: 'The case layer talks to ports, not sockets, files or SQL.' }] },
      ],
    },
  },
];
