import tseslint from 'typescript-eslint';

/**
 * Who may import whom. Each folder lists the folders its code never imports, with the reason; test files are exempt
 * from the rule about build tools (a test may start a CLI or reuse a benchmark's helper), never from the others.
 */
const shipped =
  'Shipped code never imports the build tools in scripts/: `npm start` works from its own folders.';
const browser = 'A browser app never imports the server: what both sides need is a contract outside server/.';
const engine =
  'The renderer, the blocks and the core are the engine: they never import the apps built on them.';
const BOUNDARIES = {
  contracts: [
    ['scripts', 'A contract is plain types and values: it imports no implementation.'],
    ['server', 'A contract is plain types and values: it imports no implementation.'],
    ['inbox', 'A contract is plain types and values: it imports no implementation.'],
    ['studio', 'A contract is plain types and values: it imports no implementation.'],
  ],
  server: [['scripts', shipped]],
  content: [
    ['scripts', shipped],
    ['server', 'The content model is run by the server, never the other way round.'],
  ],
  core: [
    ['scripts', shipped],
    ['server', engine],
    ['studio', engine],
    ['inbox', engine],
  ],
  renderer: [
    ['scripts', shipped],
    ['server', engine],
    ['studio', engine],
    ['inbox', engine],
  ],
  blocks: [
    ['scripts', shipped],
    ['server', engine],
    ['studio', engine],
    ['inbox', engine],
  ],
  inbox: [
    ['scripts', shipped],
    ['server', browser],
    ['studio', browser],
  ],
  studio: [['scripts', shipped]],
  'studio/client': [
    ['scripts', shipped],
    ['server', browser],
    ['studio/server', browser],
    ['inbox', browser],
  ],
};

const boundaryRules = Object.entries(BOUNDARIES).flatMap(([folder, forbidden]) => {
  const restrict = (entries) => ({
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: entries.map(([target, message]) => ({
          regex: `(^|/)${target.replace('/', '\\/')}/`,
          message: `${folder}/ must not import ${target}/. ${message}`,
        })),
      },
    ],
  });
  const tests = ['**/*.test.ts', '**/*.test.tsx'];
  return [
    { files: [`${folder}/**`], ignores: tests, rules: restrict(forbidden) },
    {
      files: tests.map((t) => `${folder}/${t}`),
      rules: restrict(forbidden.filter(([t]) => t !== 'scripts')),
    },
  ];
});

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'node_modules/**', '.build/**', 'test-results/**', '.tsbuild/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  ...boundaryRules,
);
