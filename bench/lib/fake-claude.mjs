#!/usr/bin/env node
// A stand-in for `claude -p --output-format stream-json --verbose` that prints BYTES bytes of
// realistic stream-json (init, assistant text and tool calls, tool results of 2-200 KiB, a final
// result with a report block) as fast as the pipe takes it. Arguments are ignored.
const total = Number(process.env.FAKE_CLAUDE_BYTES ?? 1024 ** 3);
const session = '772379f9-77ed-4370-8f2a-aed009054822';
const line = (o) => `${JSON.stringify(o)}\n`;
const assistant = (content, i) =>
  line({
    type: 'assistant',
    message: {
      id: `msg_${i}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-8',
      content,
      stop_reason: null,
      usage: { input_tokens: 12, output_tokens: 40 },
    },
    parent_tool_use_id: null,
    session_id: session,
    uuid: `u-${i}`,
  });
const toolResult = (i, size) =>
  line({
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: 'x'.repeat(size), is_error: false }],
    },
    parent_tool_use_id: null,
    session_id: session,
    uuid: `r-${i}`,
    tool_use_result: { stdout: 'ok', stderr: '', interrupted: false },
  });
const tools = [
  ['Bash', { command: 'npm test -- --runInBand', description: 'run tests' }],
  ['Edit', { file_path: '/repo/src/parser.ts', old_string: 'a'.repeat(200), new_string: 'b'.repeat(220) }],
  ['Read', { file_path: '/repo/src/lexer.ts' }],
];

function turn(i) {
  const [name, input] = tools[i % tools.length];
  const size = i % 50 === 0 ? 200 * 1024 : 2048 + ((i * 7919) % 6144);
  return (
    assistant(
      [{ type: 'text', text: `Step ${i}: looking at the failing test and the parser around line ${i % 400}.` }],
      i,
    ) +
    assistant([{ type: 'tool_use', id: `toolu_${i}`, name, input }], i) +
    toolResult(i, size)
  );
}

const out = process.stdout;
let written = 0;
let i = 0;
out.write(
  line({
    type: 'system',
    subtype: 'init',
    cwd: '/repo',
    session_id: session,
    tools: ['Bash', 'Edit', 'Read', 'Write'],
    model: 'claude-opus-4-8',
  }),
);
const finalLine = line({
  type: 'result',
  subtype: 'success',
  is_error: false,
  api_error_status: null,
  duration_ms: 1,
  num_turns: 3,
  result: 'Done.\n\n```yaml\nwork_remaining: 0\nrequires_continuation: false\n```',
  session_id: session,
  total_cost_usd: 0.5,
  usage: { input_tokens: 1, output_tokens: 1 },
  permission_denials: [],
});

function pump() {
  while (written < total - finalLine.length) {
    let chunk = '';
    while (chunk.length < 1024 * 1024) chunk += turn(i++);
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) return out.once('drain', pump);
  }
  out.write(finalLine);
}
pump();
