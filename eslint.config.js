// Lint: typescript-eslint's recommended rules with type information (CONTRIBUTING.md "Lint and format").
// Layout is Prettier's alone (.prettierrc.json); eslint checks code, not layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'docs/', 'fixtures/', '**/*.cjs', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test runs every test()/describe() it is given; their promises are the runner's to await.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      // The Store interface is async so that every backend fits it; SQLite's answers are synchronous
      // (better-sqlite3), so its methods are async without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // Fastify takes async hooks and handlers (it awaits what they return); so do our own
      // callback registries. Misused promises in conditions and spreads are still errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, properties: false } }],
      // Control characters are matched on purpose: they are escaped in echoed input (docs/errors.md)
      // and folded out of search text (docs/search-engine.md).
      'no-control-regex': 'off',
      // Our factories return objects of closures (createMetrics, createAuthenticator…), whose
      // interfaces declare methods; none reads `this`, so passing one as a value is safe.
      '@typescript-eslint/unbound-method': 'off',
      // A caught error passed on as it came (unknown) is allowed: wrapping it would lose its class.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      // Unused arguments keep a signature readable (handlers, visitors); an underscore marks the rest.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and the bench read HTTP bodies as parsed JSON (`any`) and assert on them: the
      // assertions are their type check, and a declared type for every body would only repeat them.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
