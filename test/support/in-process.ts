/**
 * Loads one group of the in-process e2e specs into the spec file that asks (see
 * jest.config.mjs, which makes the groups): their `describe` blocks then run in that file, in
 * one module registry, each with its own app and database as when run alone.
 */
declare global {
  var inProcessGroups: string[][];
}

export async function loadInProcessGroup(group: number): Promise<void> {
  for (const file of globalThis.inProcessGroups[group - 1] ?? []) {
    await import(`../${file}`);
  }
}
