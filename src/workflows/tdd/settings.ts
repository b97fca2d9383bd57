/** How --workflow tdd is configured beyond the run's settings: prompt templates by phase (--tdd-prompts). */
import type { TddPhase } from './notes.js';

export type TddTemplates = Partial<Record<TddPhase, string>>;
