// `npm run lint`'s import-cycle check over every source folder, type-only imports included: a cycle closed by a type
// import still means a contract lives in an implementation file. (Which folder may import which is ESLint's rule.)
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'Move what both sides need (usually a contract: types and interfaces) into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|\\.build|\\.tsbuild|generated|test-results)/' },
    tsPreCompilationDeps: true,
  },
};
