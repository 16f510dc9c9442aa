import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'node_modules/**', '.build/**', '.tsbuild/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // What runs in production (the server, the renderer, the blocks and the code they share) never depends on the
    // build tools: `npm start` must work from these folders alone.
    files: ['server/**', 'renderer/**', 'blocks/**', 'core/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/scripts/**'],
              message:
                'Production code never imports the build tools in scripts/; shared code belongs in core/.',
            },
          ],
        },
      ],
    },
  },
);
