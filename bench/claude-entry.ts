// The Claude adapter, bundled by ncc into build/bench-claude/index.js for bench/claude.mjs.
export { ClaudeAgent } from '../src/agents/claude.js';
