/** The engine's settings the slice tests share. */
import type { SliceSettings } from '../src/loop/deps.js';

/** The CLI's defaults with no delay between iterations, with what a test changes. */
export function sliceSettings(over: Partial<SliceSettings> = {}): SliceSettings {
  return {
    maxIterations: 100,
    iterationDelaySeconds: 0,
    agentTimeoutMinutes: 30,
    batch: false,
    onSuccess: 'merge',
    strict: false,
    fresh: false,
    testCommand: 'npm test',
    maxRetriesPerStep: 3,
    maxIterationsPerIssue: 20,
    maxConsecutiveEscalations: 2,
    ...over,
  };
}
