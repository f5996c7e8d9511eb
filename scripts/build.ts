/** `npm run build`: next build, recording the settings baked into it (see lib/build-freshness). */
import path from 'node:path';
import { loadBuildSettings, runNextBuild } from './lib/build-freshness';

process.exit(await runNextBuild(path.resolve(import.meta.dirname, '..'), loadBuildSettings()));
