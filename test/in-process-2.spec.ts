/** Group 2 of the in-process e2e specs, loaded together (see jest.config.mjs). */
import { loadInProcessGroup } from './support/in-process.js';

await loadInProcessGroup(2);
