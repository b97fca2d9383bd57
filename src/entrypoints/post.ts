// The bundle of the action's post step (dist/post/index.js, action.yml's runs.post): runs it.
// Everything is in ../post.ts, which exports run() (and which @github/local-action runs).
import { run } from '../post.js';

void run();
