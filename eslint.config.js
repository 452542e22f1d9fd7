import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'bench/results.json',
      'dist/',
      'dist-worker/',
      '.wrangler/',
      'generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The pages' script runs in the browser, not in Node (assets/pages/pages.js).
    files: ['assets/pages/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        ['window', 'document', 'navigator', 'fetch', 'URL', 'DOMParser', 'Intl', 'setTimeout'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
  {
    // The build step runs under plain Node before anything is compiled (scripts/build.mjs).
    files: ['scripts/**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(['process', 'console', 'URL'].map((name) => [name, 'readonly'])),
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
