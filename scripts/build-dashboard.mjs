// Builds the dashboard's static assets (`npm run build`): src/dashboard bundled by esbuild into
// build/dashboard/assets/ under content-hashed names, and build/dashboard/index.html naming them.
// `--outdir <dir>` writes elsewhere (the browser tests build into a temporary folder).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds into `outdir`; answers the asset names index.html refers to. */
export async function buildDashboard(outdir = path.join(root, 'build/dashboard')) {
  await rm(outdir, { recursive: true, force: true });
  const assets = path.join(outdir, 'assets');
  await mkdir(assets, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'src/dashboard/main.ts', style: 'src/dashboard/styles.css' },
    outdir: assets,
    entryNames: '[name]-[hash]',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    charset: 'utf8',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const names = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
  const js = names.find((name) => /^app-[A-Z0-9]+\.js$/.test(name));
  const css = names.find((name) => /^style-[A-Z0-9]+\.css$/.test(name));
  if (js === undefined || css === undefined)
    throw new Error(`dashboard build made no app/style bundle: ${names.join(', ')}`);
  const template = await readFile(path.join(root, 'src/dashboard/index.html'), 'utf8');
  await writeFile(path.join(outdir, 'index.html'), template.replace('{{js}}', js).replace('{{css}}', css));
  return { js, css };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  await buildDashboard(values.outdir ? path.resolve(values.outdir) : undefined);
}
