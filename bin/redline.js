#!/usr/bin/env node
// The package's command. The TypeScript is compiled by `npm ci` (prepare) and `npm start`
// (prestart); this file stays JavaScript so `npx redline` works without a loader.
import { main } from '../build/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
