// @ts-check
// ESLint for the whole checkout, run by `npm test` (so by CI). Syntax-only rules on purpose: the
// type-aware sets (recommendedTypeChecked) take minutes on this codebase and mostly flag the `any`
// that reading untyped YAML/JSON needs; `tsc -b` already does the type checking.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Build and synth output, and the CRD bindings `npm run import` generates (never edited by hand).
    ignores: ['lib/', 'dist/', 'dist-bench/', 'cdktf.out/', '.gen/', 'coverage/', 'src/generated/'],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // A library reports through HybridConfigError and validation results, never the console.
      'no-console': 'error',
      eqeqeq: 'error',
      // `interface XProps extends BaseProps {}` is the aws-cdk idiom: the props type can grow later without a breaking change.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // The formatter: one layout for every file, fixed by `npx eslint --fix .` and checked by `npm test`.
    plugins: { '@stylistic': stylistic },
    rules: {
      '@stylistic/indent': ['error', 2, { SwitchCase: 1, flatTernaryExpressions: true, offsetTernaryExpressions: false, ignoredNodes: ['TSTypeParameterInstantiation'] }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0 }],
      '@stylistic/eol-last': 'error',
    },
  },
  {
    // Plain JavaScript run by Node (jest config and reporter, the scripts).
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    // CommonJS files load their modules with require().
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The benchmarks print their figures, the scripts and CI's consumer run their results.
    files: ['bench/**', 'scripts/**', 'test/consumers/run.mjs'],
    rules: { 'no-console': 'off' },
  },
);
