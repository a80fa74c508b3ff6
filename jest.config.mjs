/** Native ESM Jest (NestJS 12 is ESM-only): run with NODE_OPTIONS=--experimental-vm-modules (see package.json). */
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';

import { BRIDGED_PACKAGES, bridgeEntry } from './test/support/esm-bridge.mjs';

// Tests of several instances and of lost dependencies need PostgreSQL and Redis: `npm run test:postgres`.
const scaleTests = process.env.TEST_DATABASE_URL ? [] : ['<rootDir>/test/scale/'];

/**
 * The in-process e2e specs (test/*.e2e.spec.ts) boot the application inside Jest, which loads
 * NestJS, TypeORM and the application again for every spec file: about a second of CPU each.
 * In a full run they are loaded together instead, split between the test/in-process-<n>.spec.ts
 * files so that the groups still run in parallel; each spec keeps its own app and database.
 * Run alone: the fuzz (the longest), and the specs that boot modules beyond AppModule (the
 * volunteers fixture), since @nestjs/typeorm keeps the entities of every module it has seen
 * in one registry per module registry. A spec named on the command line
 * (`npm test -- test/etags.e2e.spec.ts`) runs on its own.
 */
const RUN_ALONE = new Set(['fuzz.e2e.spec.ts', 'module-recipe.e2e.spec.ts', 'route-fuzz.e2e.spec.ts']);
const testFiles = readdirSync(new URL('./test/', import.meta.url));
const groupFiles = testFiles.filter((file) => /^in-process-\d+\.spec\.ts$/.test(file));
const inProcessSpecs = testFiles.filter((file) => file.endsWith('.e2e.spec.ts') && !RUN_ALONE.has(file)).sort();
const inProcessGroups = groupFiles.map((_, group) =>
  inProcessSpecs.filter((_, index) => index % groupFiles.length === group),
);

/** Jest's options whose value is the next argument. */
const VALUE_OPTIONS = new Set(['-c', '--config', '-t', '--testNamePattern', '-w', '--maxWorkers', '--outputFile']);
const args = process.argv.slice(2);
const named = args.filter((arg, index) => !arg.startsWith('-') && !VALUE_OPTIONS.has(args[index - 1]));
const specsNamed = named.length > 0 && !named.some((arg) => arg.includes('in-process'));
const notRun = (files) => files.map((file) => `<rootDir>/test/${file.replaceAll('.', '\\.')}$`);

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    ...Object.fromEntries(BRIDGED_PACKAGES.map((name) => [`^${name}$`, bridgeEntry(name)])),
    // @fastify/static (CommonJS) requires content-disposition 3, which is ESM-only; Jest gets
    // version 2 (CommonJS, the same `create` API, already installed for Express) instead.
    '^content-disposition$': '<rootDir>/node_modules/content-disposition/dist/index.js',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/src/**/*.spec.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...scaleTests,
    ...(specsNamed ? notRun(groupFiles) : notRun(inProcessSpecs)),
  ],
  // Read by test/support/in-process.ts.
  globals: { inProcessGroups },
  globalSetup: '<rootDir>/test/support/esm-bridge.mjs',
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  testTimeout: 30_000,
  // Half the spec files wait on child processes, a browser or timers rather than the CPU: one
  // worker more than the cores keeps both cores busy (2 cores: 3 workers).
  maxWorkers: availableParallelism() + 1,
};
