/** Native ESM Jest (NestJS 12 is ESM-only): run with NODE_OPTIONS=--experimental-vm-modules (see package.json). */
import { availableParallelism } from 'node:os';

import { BRIDGED_PACKAGES, bridgeEntry } from './test/support/esm-bridge.mjs';

// Tests of several instances and of lost dependencies need PostgreSQL and Redis: `npm run test:postgres`.
const scaleTests = process.env.TEST_DATABASE_URL ? [] : ['<rootDir>/test/scale/'];

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
  testPathIgnorePatterns: ['/node_modules/', ...scaleTests],
  globalSetup: '<rootDir>/test/support/esm-bridge.mjs',
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  testTimeout: 30_000,
  // Half the spec files wait on child processes, a browser or timers rather than the CPU: one
  // worker more than the cores keeps both cores busy (2 cores: 3 workers).
  maxWorkers: availableParallelism() + 1,
};
