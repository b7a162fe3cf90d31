/**
 * Import rules checked by `npm run lint:deps` (and .ci/run): no cycle between files, and none between the
 * folders that hold the modules (src/README.md, "Modules"). dependency-cruiser is used rather than a
 * hand-written walk of the imports because it resolves TypeScript paths and type-only imports the way tsc does.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'Files import each other in a circle: break it with a narrow port or an event.',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Folders (modules) depend on each other in a circle: one of them should reach the other through a port or an event.',
      scope: 'folder',
      from: { path: '^src' },
      to: { circular: true },
    },
  ],
  options: {
    // Unit tests beside services (src/**/*.test.ts) import shared test helpers from test/helpers, which import
    // src again: that loop runs through a leaf nobody imports, so it is no dependency between modules.
    exclude: { path: '\\.test\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
