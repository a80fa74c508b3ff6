/**
 * Specs that start the built service (`dist/`) build it first when the sources are newer, so
 * `npm test` needs no build step of its own and a single in-process spec starts at once.
 * Jest's workers may ask at the same time: one builds, the others wait for it.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const BUILT = join(ROOT, 'dist', 'src', 'main.js');
const LOCK = join(ROOT, 'dist.build.lock');
const SOURCES = ['src', 'scripts', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
const STALE_LOCK_MS = 120_000;

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) {
    return stat.mtimeMs;
  }
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

function isCurrent(): boolean {
  if (!existsSync(BUILT)) {
    return false;
  }
  const built = statSync(BUILT).mtimeMs;
  return SOURCES.every((source) => !existsSync(join(ROOT, source)) || newestChange(join(ROOT, source)) <= built);
}

/** Builds `dist/` unless it is newer than every source; while another worker builds, waits for the whole build. */
export async function ensureBuilt(): Promise<void> {
  // A build in progress may already have written a fresh main.js beside files it has not written yet.
  while (existsSync(LOCK) || !isCurrent()) {
    let lock: number;
    try {
      lock = openSync(LOCK, 'wx');
    } catch {
      // Another worker builds; a lock left by a killed run is taken over.
      const since = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > STALE_LOCK_MS) {
        unlinkSync(LOCK);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      if (!isCurrent()) {
        execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], {
          cwd: ROOT,
          stdio: 'inherit',
        });
      }
    } finally {
      closeSync(lock);
      unlinkSync(LOCK);
    }
  }
}
