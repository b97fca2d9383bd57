/**
 * The red/green/refactor workflow's handoff state (seed 003, "Error State in Git Notes"): its schema
 * (src/core/tddNote.ts, pure: the core's vocabulary carries notes) and its reading and writing with
 * git (src/loop/notes.ts, performed by the interpreter), in one place for the workflow.
 */
export * from '../../core/tddNote.js';
export * from '../../loop/notes.js';
