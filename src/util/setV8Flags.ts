/**
 * Imported first by the entrypoints (src/cli.ts, src/main.ts), so the engine's V8 flags are set
 * before the bundle's modules are evaluated: loading them alone grew the young generation to 4 or 8
 * MiB when its flag was set after them (v8Flags.ts says what each flag does and why).
 */
import { setEngineV8Flags } from './v8Flags.js';

setEngineV8Flags();
