// Import cycles, type-only imports included (docs/architecture.md "Layers"). ESLint's
// import/no-cycle skips `import type`, but a type cycle still says a type lives in the wrong file;
// dependency-cruiser reads the TypeScript before compilation (tsPreCompilationDeps), so it sees
// them. The layer zones themselves are checked by ESLint (eslint.config.js).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle, type-only imports included: move the shared type or code to the lower module.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data|\\.tmp|test-results|bench-results|dev-dist)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] },
  },
};
