// The engine modules the checkpoint benchmark (bench/checkpoint.mjs) uses, bundled by ncc into
// build/bench-checkpoint/index.js so that plain Node can import the compiled code. Nothing else.
export { FileCheckpointStore, newCheckpointId } from '../src/checkpoint/fileStore.js';
export { parseCheckpoint, serializeCheckpoint } from '../src/checkpoint/schema.js';
export { HISTORY_KEPT, appendHistory, initialLoopState, parseLoopState } from '../src/core/state.js';
export { writeFileAtomic } from '../src/util/atomicWrite.js';
