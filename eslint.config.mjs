// @ts-check
// ESLint for the whole checkout, run by `npm test` (so by CI). Syntax-only rules on purpose: the
// type-aware sets (recommendedTypeChecked) take minutes on this codebase and mostly flag the `any`
// that reading untyped YAML/JSON needs; `tsc -b` already does the type checking.
import js from '@eslint/js';
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
    // The benchmarks print their figures, the scripts their results.
    files: ['bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
