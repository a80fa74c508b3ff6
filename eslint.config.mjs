import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layers, so that a wrong import fails `npm run lint`. src/common is the bottom layer: it
 * imports only itself and src/config, and inside it geo ← errors ← validation ← resources ←
 * http ← openapi (each may import those to its left). Every other folder of src may import only the
 * folders listed for it; a folder not listed (a new resource module) gets RESOURCE_MODULE.
 * The application module and main.ts assemble everything and are not restricted.
 */
const COMMON_LAYERS = ['geo', 'errors', 'validation', 'resources', 'http', 'openapi'];
const RESOURCE_MODULE = ['common', 'config', 'database', 'events', 'idempotency'];
const ALLOWED = {
  config: [],
  database: ['common', 'config'],
  logging: ['common', 'config'],
  auth: ['common', 'config'],
  'rate-limit': ['auth', 'common', 'config'],
  idempotency: ['auth', 'common', 'config', 'database'],
  health: ['auth', 'common', 'config', 'database', 'rate-limit'],
  // Interests are a pet's: they read the pet they belong to, and need a token for every read.
  interests: ['auth', 'common', 'config', 'database', 'events', 'idempotency', 'pets'],
  // Events name no feature: resources hand the outbox their changes.
  events: ['auth', 'common', 'config', 'database'],
};

/** An import leaving the folder for one not in `allowed`, from a file `depth` folders below src/<folder>/. */
const leaving = (allowed, depth) =>
  `^${'\\.\\./'.repeat(depth + 1)}(?!${allowed.map((name) => `${name}/`).join('|') || '$^'})[^./]`;

const restrict = (files, regexes, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: regexes.map((regex) => ({ regex, message })) }] },
});

const layers = [
  ...COMMON_LAYERS.flatMap((layer, index) =>
    [0, 1].map((depth) =>
      restrict(
        [`src/common/${layer}/${'*/'.repeat(depth)}*.ts`],
        [
          `^${'\\.\\./'.repeat(depth)}\\.\\./(${COMMON_LAYERS.slice(index + 1).join('|') || '$^'})/`,
          `^${'\\.\\./'.repeat(depth + 1)}\\.\\./(?!config/)`,
        ],
        `src/common/${layer} may import only src/config and the common layers below it (${COMMON_LAYERS.slice(0, index).join(', ') || 'none'}).`,
      ),
    ),
  ),
  restrict(
    ['src/common/*.ts'],
    ['^\\.\\./(?!config/)'],
    'src/common imports nothing outside src/common and src/config.',
  ),
  ...Object.entries(ALLOWED).flatMap(([folder, allowed]) =>
    [0, 1, 2].map((depth) =>
      restrict(
        [`src/${folder}/${'*/'.repeat(depth)}*.ts`],
        [leaving(allowed, depth)],
        `src/${folder} may import only ${allowed.join(', ') || 'itself'}.`,
      ),
    ),
  ),
  ...[0, 1, 2].map((depth) => ({
    ...restrict(
      [`src/*/${'*/'.repeat(depth)}*.ts`],
      [leaving(RESOURCE_MODULE, depth)],
      `A resource module may import only ${RESOURCE_MODULE.join(', ')}; modules meet through references (src/common/resources/references.ts), not imports.`,
    ),
    ignores: ['src/common/**', ...Object.keys(ALLOWED).map((folder) => `src/${folder}/**`)],
  })),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-output/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs', 'test/support/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: 'error',
      curly: 'error',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // supertest bodies are `any`; the assertions check their shape.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  ...layers,
  { files: ['**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
