// ESLint (flat config): TypeScript rules that catch bugs; formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
    {
        ignores: [
            'node_modules/',
            'build/',
            'artifacts/',
            'cache/',
            'typechain-types/',
            'coverage/',
            'temp/',
            'bench/results/',
        ],
    },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        languageOptions: { globals: { ...globals.node, ...globals.jest } },
        rules: {
            '@typescript-eslint/no-unused-vars': [
                'error',
                { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
            ],
            '@typescript-eslint/no-require-imports': 'off',
            '@typescript-eslint/no-explicit-any': 'error',
            'no-constant-condition': ['error', { checkLoops: false }],
        },
    },
    {
        // the product (contracts' wrappers, the shared library, the operators, the API, the scripts)
        // never depends on the simulator; only the local network (a simulated network) and tests do
        files: ['lib/**/*.ts', 'wrappers/**/*.ts', 'scripts/**/*.ts', 'service/**/*.ts'],
        ignores: ['service/localnet/**'],
        rules: {
            'no-restricted-imports': [
                'error',
                {
                    patterns: [
                        {
                            group: ['**/harness', '**/harness/**'],
                            message: 'the product does not import the simulator (harness/): move shared code to lib/',
                        },
                    ],
                },
            ],
        },
    },
    {
        files: ['**/*.js', '**/*.cjs'],
        rules: { '@typescript-eslint/no-var-requires': 'off' },
    },
);
