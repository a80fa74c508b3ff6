/**
 * Jest (before Node 24.9) cannot `require()` an ES module, yet a few CommonJS packages of
 * the stack require the ESM-only NestJS 12 packages (`@nestjs/throttler` requires
 * `@nestjs/common`). Node itself runs them fine. For Jest only, this global setup writes
 * an ES-module copy of each such package under node_modules/.cache, and jest.config.mjs
 * maps the package name to it; the package's own code runs unchanged inside the wrapper.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, parse } from 'cjs-module-lexer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));

/** CommonJS packages that require ESM-only packages, by name. */
export const BRIDGED_PACKAGES = ['@nestjs/throttler', '@nest-lab/throttler-storage-redis'];

export function bridgeEntry(name) {
  return join(root, 'node_modules', '.cache', 'esm-bridge', name, 'index.mjs');
}

function convert(source, file, packageDir) {
  const { exports, reexports } = parse(source);
  const requires = [...new Set([...source.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]))];
  const imports = requires.map((id, index) => {
    const target = id.startsWith('.') ? `${id}.mjs` : id;
    return `import * as __dep${index} from ${JSON.stringify(target)};`;
  });
  const table = requires.map((id, index) => `${JSON.stringify(id)}: __dep${index}`).join(', ');
  const names = exports.filter((name) => name !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(name));
  const star = reexports.map((id) => `export * from ${JSON.stringify(id.startsWith('.') ? `${id}.mjs` : id)};`);
  return [
    ...imports,
    `const __modules = { ${table} };`,
    `const require = (id) => { const m = __modules[id]; return m && m.default && Object.keys(m).length === 1 ? m.default : m; };`,
    'const module = { exports: {} }; const exports = module.exports;',
    `// ${relative(packageDir, file)}`,
    '(function () {',
    source.replace(/^#!.*/, ''),
    '}).call(module.exports);',
    `export default module.exports;`,
    ...names.map((name) => `export const ${name} = module.exports.${name};`),
    ...star,
  ].join('\n');
}

export default async function bridge() {
  await init();
  for (const name of BRIDGED_PACKAGES) {
    const packageDir = dirname(require.resolve(`${name}/package.json`));
    const entry = require.resolve(name);
    const sourceDir = dirname(entry);
    const outDir = dirname(bridgeEntry(name));
    mkdirSync(outDir, { recursive: true });
    for (const fileName of readdirSync(sourceDir).filter((file) => file.endsWith('.js'))) {
      const file = join(sourceDir, fileName);
      writeFileSync(
        join(outDir, fileName.replace(/\.js$/, '.mjs')),
        convert(readFileSync(file, 'utf8'), file, packageDir),
      );
    }
    const entryName = relative(sourceDir, entry).replace(/\.js$/, '.mjs');
    if (entryName !== 'index.mjs') {
      writeFileSync(join(outDir, 'index.mjs'), `export * from './${entryName}';\n`);
    }
  }
}
