// The bundle of the action's main step (dist/main/index.js, action.yml's runs.main): runs it.
// Everything is in ../main.ts, which exports run() (and which @github/local-action runs).
import { run } from '../main.js';

void run();
