/**
 * The OpenAPI document as the built service serves it (`dist/scripts/openapi-document.js`,
 * so run after `nest build`, as the npm scripts do), and what is made from it:
 *   node scripts/openapi-tasks.mjs lint     Redocly (recommended rules) and Spectral (spectral:oas)
 *                                           with 0 errors and 0 warnings, and the committed client
 *                                           types are those of this document
 *   node scripts/openapi-tasks.mjs client   regenerates the client types (`npm run client:generate`)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const CLIENT_TYPES = join(root, 'clients', 'typescript', 'src', 'schema.d.ts');
const SEVERITIES = ['error', 'warning'];

/** Writes the document to `file`; the service boots on an in-memory database and does not listen. */
function writeDocument(file) {
  execFileSync(process.execPath, [join(root, 'dist', 'scripts', 'openapi-document.js'), file], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' },
    stdio: 'inherit',
  });
}

/** The client's types, as `client:generate` writes them (formatted like the rest of the code). */
async function clientTypes(documentFile) {
  const ast = await openapiTS(new URL(`file://${documentFile}`));
  const source = `${COMMENT_HEADER}${astToString(ast)}`;
  const options = await prettier.resolveConfig(CLIENT_TYPES);
  return prettier.format(source, { ...options, filepath: CLIENT_TYPES });
}

/** Runs a linter with JSON output; returns its problems by severity (0 = error, 1 = warning). */
function lintWith(name, args, problemsOf) {
  const run = spawnSync(bin(name), args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const start = run.stdout.search(/[[{]/);
  if (start === -1) {
    process.stderr.write(run.stdout + run.stderr);
    throw new Error(`${name} printed no report (exit ${run.status})`);
  }
  const problems = problemsOf(JSON.parse(run.stdout.slice(start)));
  const counts = SEVERITIES.map((_, severity) => problems.filter((problem) => problem.severity === severity).length);
  console.log(`${name} lint: ${counts[0]} errors, ${counts[1]} warnings`);
  for (const problem of problems) {
    console.log(`  ${SEVERITIES[problem.severity] ?? 'info'} ${problem.rule}: ${problem.message} (${problem.where})`);
  }
  return problems.filter((problem) => problem.severity <= 1).length;
}

async function lint(documentFile) {
  let failures = lintWith('redocly', ['lint', '--format=json', documentFile], (report) =>
    report.problems.map((problem) => ({
      severity: problem.severity === 'error' ? 0 : problem.severity === 'warn' ? 1 : 2,
      rule: problem.ruleId,
      message: problem.message,
      where: problem.location?.[0]?.pointer ?? '',
    })),
  );
  failures += lintWith('spectral', ['lint', '--format=json', '--quiet', documentFile], (results) =>
    results.map((result) => ({
      severity: result.severity,
      rule: result.code,
      message: result.message,
      where: `#/${result.path.join('/')}`,
    })),
  );
  const expected = await clientTypes(documentFile);
  if (readFileSync(CLIENT_TYPES, 'utf8') !== expected) {
    console.log(`${relative(root, CLIENT_TYPES)} differs from the document: run \`npm run client:generate\``);
    failures++;
  } else {
    console.log(`${relative(root, CLIENT_TYPES)} matches the document`);
  }
  if (failures > 0) {
    process.exitCode = 1;
  }
}

const task = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
try {
  const documentFile = join(dir, 'openapi.json');
  writeDocument(documentFile);
  if (task === 'lint') {
    await lint(documentFile);
  } else if (task === 'client') {
    writeFileSync(CLIENT_TYPES, await clientTypes(documentFile));
    console.log(`wrote ${relative(root, CLIENT_TYPES)}`);
  } else {
    throw new Error('usage: node scripts/openapi-tasks.mjs lint|client');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
