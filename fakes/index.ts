/**
 * The one set of test doubles, shared by the tests (__tests__/) and the benchmarks (bench/): an
 * in-memory issue source, a scripted agent, a manual clock, a git that runs nothing, the slice's
 * settings. Each is typed against the engine's own interface; nothing here waits or spawns.
 */
export { MemorySource } from './memorySource.js';
export { ScriptedAgent, type Step, done, fail, failed, stuck, working } from './scriptedAgent.js';
export { ManualClock } from './manualClock.js';
export { fakeGit } from './fakeGit.js';
export { sliceSettings } from './sliceSettings.js';
