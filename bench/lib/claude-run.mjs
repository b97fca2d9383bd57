// Runs the bundled Claude adapter once against bench/lib/fake-claude.mjs and prints what it measured
// as JSON. A process of its own, so its peak RSS is the adapter's alone.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [entry, cwd, logFile] = process.argv.slice(2);
const { ClaudeAgent } = await import(pathToFileURL(entry).href);
const fake = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-claude.mjs');
const agent = new ClaudeAgent({ command: fake, permissionMode: 'acceptEdits', env: process.env });
let shown = 0;
const r = await agent.run({
  prompt: 'bench',
  iteration: 1,
  issueIds: ['b-1'],
  cwd,
  promptFile: '',
  timeoutMs: 600_000,
  logFile,
  onLine: () => {
    shown++;
  },
});
console.log(
  JSON.stringify({
    ok: r.ok,
    failure: r.failure,
    durationMs: r.durationMs,
    costUsd: r.costUsd,
    report: Boolean(r.report),
    shown,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  }),
);
