#!/usr/bin/env node
// The package's command. The TypeScript is compiled and bundled by `npm ci` (prepare) and
// `npm start` (prestart) into build/bundle/ (scripts/build-cli.mjs); this file stays JavaScript so
// `npx redline` works without a loader.
import { main } from '../build/bundle/main.js';

process.exitCode = await main(process.argv.slice(2));
