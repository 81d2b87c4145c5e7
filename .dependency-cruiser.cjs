/**
 * The import-cycle check of `npm test` (and `npm run lint`): no module of an app or a package
 * reaches itself again through its imports, type imports included (a type-only circle still ties
 * two modules' designs together). Workspace packages are followed into their sources.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: break it by moving what both sides need to a third module.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.turbo|\\.local|\\.venv[^/]*)/' },
    // Type-only imports count: they are dependencies of the design, if not of the running code.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    cache: false,
  },
};
