import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'node_modules/**', '.build/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // What runs in production (the server, the renderer, the blocks, the content model and the code they share) never
    // depends on the build tools: `npm start` must work from these folders alone.
    files: ['server/**', 'renderer/**', 'blocks/**', 'core/**', 'content/**'],
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
  {
    // The content model is a package of its own: the build, the studio and the server use it, never the reverse.
    files: ['content/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/scripts/**', '**/server/**', '**/studio/**', '**/inbox/**'],
              message: 'content/ never imports scripts/, server/, studio/ or inbox/: they import content/.',
            },
          ],
        },
      ],
    },
  },
);
