/**
 * ESLint (flat config) for the server, the tests, the benches and the web front end: typescript-eslint's
 * recommended rules, React's hooks rules for web/, and the few house rules below. `npm run lint` runs it,
 * and so does .ci/run. Formatting is Prettier's (`npm run format:check`), so no stylistic rule is here.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['.dependency-cruiser.cjs', 'dist/**', 'node_modules/**', '.tmp/**', 'clients/js/src/schema.d.ts', 'clients/js/dist/**', 'drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // Unused names are compile errors already (tsconfig noUnusedLocals); `_`-prefixed ones are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-duplicate-imports': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Tests read JSON bodies and pick at them: the assertions are the type check there.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two classic hooks rules; the React Compiler's stricter set (set-state-in-effect, purity, refs)
    // would ask for a rewrite of data loading that the pages do not need while they are not compiled.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
