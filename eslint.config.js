import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'bench/results.json', 'dist/', '.wrangler/'] },
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
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
