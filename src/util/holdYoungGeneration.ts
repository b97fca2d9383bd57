/**
 * Imported first by the entrypoints (src/cli.ts, src/main.ts), so the young generation is held
 * before the bundle's modules are evaluated: loading them alone grew it to 4 or 8 MiB when the flag
 * was set after them (youngGeneration.ts says why it is held).
 */
import { holdYoungGeneration } from './youngGeneration.js';

holdYoungGeneration();
