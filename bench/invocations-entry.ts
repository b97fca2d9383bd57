// The slice runner and the test doubles the invocations benchmark (bench/invocations.mjs) drives it
// with, bundled by ncc into build/bench-invocations/index.js so that plain Node can import them.
// The doubles are the tests' own (fakes/): one set, typed against the engine's interfaces.
export { FileCheckpointStore } from '../src/checkpoint/fileStore.js';
export { POLICIES, backoffMs } from '../src/failure/policy.js';
export { runSlice } from '../src/loop/slice.js';
export { implementWorkflow } from '../src/workflows/index.js';
export { createLogger } from '../src/report/logger.js';
export { createRedactor } from '../src/secrets/redact.js';
export { GitError } from '../src/git/git.js';
export { explainHttpError } from '../src/issues/github/errors.js';
export { createPullRequestPublisher } from '../src/publish/pullRequest.js';
export { ManualClock, MemorySource, ScriptedAgent, done, failed, fakeGit } from '../fakes/index.js';
