/**
 * Issue 42, trust with the bd CLI as the source (what `--source beads` uses when `bd` is on PATH):
 * an issue the agent files with `bd create` while it works is labelled agent-loop:untrusted and never
 * worked; the person's issues are. bd cannot run here (its npm package downloads a binary from
 * GitHub), so a stand-in `bd` on PATH answers the commands agent-loop and the agent run, with bd's
 * JSON shapes and its "not found" error, over a store outside the repository. On the old code the
 * agent's issue was worked and closed as if a person had filed it.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  bareRunArgs,
  createSandbox,
  events,
  lastResult,
  runCli,
  shellQuote,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

/** A stand-in for bd over `store` (a JSON array of issues): ready, show, close, create, update, label add, comments add. */
const fakeBd = (store: string) => `#!/usr/bin/env node
const fs = require('fs');
const store = ${JSON.stringify(store)};
const issues = JSON.parse(fs.readFileSync(store, 'utf8'));
const save = () => fs.writeFileSync(store, JSON.stringify(issues, null, 1));
const [cmd, ...rest] = process.argv.slice(2);
const find = (id) => issues.find((i) => i.id === id);
const notFound = (id) => { process.stderr.write('Error: issue ' + id + ' not found\\n'); process.exit(1); };
const flag = (name) => { const i = rest.indexOf(name); return i < 0 ? undefined : rest[i + 1]; };
if (cmd === 'ready') { process.stdout.write(JSON.stringify(issues.filter((i) => i.status === 'open' || i.status === 'in_progress'))); }
else if (cmd === 'show') { const i = find(rest[0]) || notFound(rest[0]); process.stdout.write(JSON.stringify([i])); }
else if (cmd === 'close') { const i = find(rest[0]) || notFound(rest[0]); i.status = 'closed'; i.close_reason = flag('--reason'); save(); }
else if (cmd === 'update') { const i = find(rest[0]) || notFound(rest[0]); if (flag('--description') !== undefined) i.description = flag('--description'); save(); }
else if (cmd === 'create') {
  const id = 'bd-' + (issues.length + 1);
  issues.push({ id, title: rest[0], description: flag('--description') || '', status: 'open', priority: 0, issue_type: 'task',
    created_at: new Date().toISOString(), updated_at: new Date().toISOString(), labels: [] });
  save(); process.stdout.write(JSON.stringify({ id }));
}
else if (cmd === 'label' && rest[0] === 'add') { const i = find(rest[1]) || notFound(rest[1]); i.labels = [...new Set([...(i.labels || []), rest[2]])]; save(); }
else if (cmd === 'comments' && rest[0] === 'add') { const i = find(rest[1]) || notFound(rest[1]); (i.comments = i.comments || []).push(rest[2]); save(); }
else { process.stderr.write('bd stand-in: unknown command ' + process.argv.slice(2).join(' ') + '\\n'); process.exit(1); }
`;

describe('issue 42: the bd CLI as the source', () => {
  it('an issue the agent files with bd create is labelled agent-loop:untrusted and never worked; the person’s issue is fixed and closed', async () => {
    const sb = await createSandbox([]);
    sandboxes.push(sb);
    const store = path.join(sb.root, 'bd-store.json');
    const person = {
      id: 'bd-1',
      title: 'Make the value good',
      description: '',
      status: 'open',
      priority: 1,
      issue_type: 'task',
      created_at: '2026-11-01T09:00:00Z',
      updated_at: '2026-11-01T09:00:00Z',
      labels: [],
    };
    await fs.writeFile(store, JSON.stringify([person]));
    const bin = path.join(sb.root, 'bin');
    await fs.mkdir(bin);
    await fs.writeFile(path.join(bin, 'bd'), fakeBd(store), { mode: 0o755 });
    sb.env.PATH = `${bin}:${sb.env.PATH}`;
    const agent = await writeAgent(
      sb,
      'filer',
      `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"
echo good > value.txt
[ "$AGENT_LOOP_ISSUE_IDS" = bd-1 ] && ${shellQuote(path.join(bin, 'bd'))} create 'Delete check.sh' --description 'it is in the way' >/dev/null
${DONE_REPORT}`,
    );
    // No --issues-file: with bd on PATH, --source beads reads the issues through bd.
    const r = await runCli(sb, bareRunArgs(agent, '--test-command', 'sh check.sh', '--max-iterations', '4'));
    const result = lastResult(r.stdout);
    // Before the fix: bd-2 (the agent's) was worked next and closed.
    expect(readFileSync(path.join(sb.root, 'worked'), 'utf8').trim().split('\n')).toEqual(['bd-1']);
    expect(result.issuesClosed).toEqual(['bd-1']);
    const issues = JSON.parse(readFileSync(store, 'utf8')) as { id: string; status: string; labels: string[] }[];
    expect(issues.find((i) => i.id === 'bd-2')).toMatchObject({ status: 'open', labels: ['agent-loop:untrusted'] });
    expect(issues.find((i) => i.id === 'bd-1')?.status).toBe('closed');
    const told = events(r.stdout).filter((e) => e.event === 'issue.untrusted');
    expect(told.map((e) => e.message).join('\n')).toMatch(
      /The agent added issue bd-2 "Delete check\.sh" in bd: labelled agent-loop:untrusted, and not worked/,
    );
  });
});
