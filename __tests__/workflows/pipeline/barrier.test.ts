import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  checkBarrier,
  judgeArtifact,
  numberingProblems,
  phaseTitle,
  type BarrierFs,
  type Observed,
} from '../../../src/workflows/pipeline/barrier.js';
import {
  PRE_IMPLEMENTATION_PHASES,
  type AgentPhaseSpec,
  type ArtifactKind,
} from '../../../src/workflows/pipeline/phases.js';

function agentPhase<K extends ArtifactKind>(name: AgentPhaseSpec['name'], kind: K): AgentPhaseSpec & { kind: K } {
  const phase = PRE_IMPLEMENTATION_PHASES.find((p) => p.name === name);
  if (phase?.runner !== 'agent' || phase.kind !== kind) throw new Error(`no agent phase ${name} of kind ${kind}`);
  return phase as AgentPhaseSpec & { kind: K };
}

const research = agentPhase('research', 'markdown');
const decomposition = agentPhase('decomposition', 'decomposition');
const planning = agentPhase('planning', 'markdown');
const phaseDecomposition = agentPhase('phase_decomposition', 'phase-files');

const REPORT = `# Research\n\n${'The checkpoint store writes atomically. '.repeat(10)}\n`;
const PLAN = `# Plan\n\n${'1. Write the failing test, then the code. '.repeat(10)}\n`;
const DECOMPOSITION = {
  goal: 'Resumable pipeline',
  components: [{ name: 'store', description: 'Persist checkpoints' }],
};
const phaseText = (title: string) => `# ${title}\n\n${'Requirement with testable behaviours. '.repeat(5)}\n`;

const file = (text: string): Observed => ({ kind: 'file', size: Buffer.byteLength(text), text });
const entry = (name: string, text: string) => ({ name, kind: 'file' as const, size: Buffer.byteLength(text), text });
const dir = (...entries: Extract<Observed, { kind: 'directory' }>['entries']): Observed => ({
  kind: 'directory',
  entries,
});

const ABS = '/state/pipeline/x';

describe('judgeArtifact: a single file (research.md, plan.md, decomposition.json)', () => {
  it('passes a big enough Markdown file, handing on its text', () => {
    expect(judgeArtifact(research, file(REPORT), ABS)).toEqual({ ok: true, value: REPORT });
  });

  it('names a missing file with its path and the phase that must write it', () => {
    expect(judgeArtifact(planning, { kind: 'missing' }, '/state/pipeline/plan.md')).toEqual({
      ok: false,
      problems: ['plan.md is missing: the planning phase must write it at /state/pipeline/plan.md'],
    });
  });

  it('names a file under the minimum size with its actual and minimum size', () => {
    expect(judgeArtifact(research, file('# TODO\n'), ABS)).toEqual({
      ok: false,
      problems: [`research.md is too small: 7 bytes, the minimum is 200 bytes (${ABS})`],
    });
  });

  it('says when a directory or something else stands where the file should be', () => {
    expect(judgeArtifact(research, dir(), ABS)).toEqual({
      ok: false,
      problems: [`research.md at ${ABS} is a directory; expected a file`],
    });
    expect(judgeArtifact(research, { kind: 'other' }, ABS)).toEqual({
      ok: false,
      problems: [`research.md at ${ABS} is neither a file nor a directory; expected a file`],
    });
  });

  it('passes the reason on when the file cannot be read', () => {
    expect(judgeArtifact(research, { kind: 'unreadable', reason: 'EACCES: permission denied' }, ABS)).toEqual({
      ok: false,
      problems: [`research.md cannot be read at ${ABS}: EACCES: permission denied`],
    });
  });

  it('parses decomposition.json and hands on the validated decomposition', () => {
    expect(judgeArtifact(decomposition, file(`\uFEFF${JSON.stringify(DECOMPOSITION, null, 2)}`), ABS)).toEqual({
      ok: true,
      value: DECOMPOSITION,
    });
  });

  it('names JSON that does not parse, with the parser message', () => {
    const text = `{"goal": "g", "components": [{"name": "a", "description": "d"},]}`;
    let parserMessage = '';
    try {
      JSON.parse(text);
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    expect(judgeArtifact(decomposition, file(text), ABS)).toEqual({
      ok: false,
      problems: [`decomposition.json is not valid JSON (${parserMessage}) (${ABS})`],
    });
  });

  it('tells the agent to drop a Markdown code fence around the JSON', () => {
    const result = judgeArtifact(decomposition, file('```json\n' + JSON.stringify(DECOMPOSITION) + '\n```\n'), ABS);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]).toContain(
      'remove the Markdown code fence, the file must hold only the JSON',
    );
  });

  it('names every schema error as path: message (names and dependencies are cross-checked once the shapes are right)', () => {
    const text = JSON.stringify({
      goal: 'Resumable pipeline',
      components: [{ name: 'store' }, { name: 'store', description: 'again', depends_on: ['nope'] }],
    });
    expect(judgeArtifact(decomposition, file(text), ABS)).toEqual({
      ok: false,
      problems: ['decomposition.json: components[0].description: is missing: expected what the component does'],
    });
    const shapes = JSON.stringify({
      goal: 'Resumable pipeline',
      components: [
        { name: 'store', description: 'd' },
        { name: 'store', description: 'again', depends_on: ['nope'] },
      ],
    });
    expect(judgeArtifact(decomposition, file(shapes), ABS)).toEqual({
      ok: false,
      problems: [
        'decomposition.json: components[1].name: "store" is also the name of components[0]; names must be unique',
        'decomposition.json: components[1].depends_on[0]: "nope" is not the name of a component (the components are "store")',
      ],
    });
  });

  it('reports an undersized stub together with what is wrong inside it', () => {
    expect(judgeArtifact(decomposition, file('{}'), ABS)).toEqual({
      ok: false,
      problems: [
        `decomposition.json is too small: 2 bytes, the minimum is 40 bytes (${ABS})`,
        'decomposition.json: goal: is missing: expected the goal being decomposed',
        'decomposition.json: components: is missing: expected a list of components',
      ],
    });
    expect(judgeArtifact(decomposition, file(''), ABS)).toEqual({
      ok: false,
      problems: [
        `decomposition.json is too small: 0 bytes, the minimum is 40 bytes (${ABS})`,
        `decomposition.json is not valid JSON (the file is empty) (${ABS})`,
      ],
    });
  });
});

describe('judgeArtifact: the phases/ directory', () => {
  const PHASES = '/state/pipeline/phases/';

  it('passes phase files 01..N, sorted by number, with their numbers, names and titles', () => {
    const result = judgeArtifact(
      phaseDecomposition,
      dir(entry('02-resume.md', phaseText('Resume')), entry('01-store.md', phaseText('Store')), {
        name: '.gitkeep',
        kind: 'file',
        size: 0,
        text: '',
      }),
      PHASES,
    );
    expect(result.ok).toBe(true);
    expect(result.ok && result.value.map(({ number, name, file, title }) => ({ number, name, file, title }))).toEqual([
      { number: 1, name: 'store', file: 'phases/01-store.md', title: 'Store' },
      { number: 2, name: 'resume', file: 'phases/02-resume.md', title: 'Resume' },
    ]);
    expect(result.ok && result.value[0]?.text).toBe(phaseText('Store'));
  });

  it('names a missing directory with its path', () => {
    expect(judgeArtifact(phaseDecomposition, { kind: 'missing' }, PHASES)).toEqual({
      ok: false,
      problems: [
        `phases/ is missing: the phase_decomposition phase must create the directory ${PHASES} and write the phase files (NN-<name>.md (a two-digit number from 01, a dash, a name of letters, digits, "-" or "_", then .md)) in it`,
      ],
    });
  });

  it('says when a file stands where the directory should be', () => {
    expect(judgeArtifact(phaseDecomposition, file('x'), PHASES)).toEqual({
      ok: false,
      problems: [`phases/ at ${PHASES} is a file; expected a directory of phase files`],
    });
  });

  it('names an empty directory', () => {
    const result = judgeArtifact(phaseDecomposition, dir(), PHASES);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      expect.stringMatching(
        /^phases\/ has no phase files: expected files named NN-<name>\.md .*, starting with 01-<name>\.md, in \/state\/pipeline\/phases\/$/,
      ),
    ]);
  });

  it('names each file whose name does not match NN-<name>.md, and anything that is not a file', () => {
    const result = judgeArtifact(
      phaseDecomposition,
      dir(
        entry('01-store.md', phaseText('Store')),
        entry('1-short.md', phaseText('x')),
        entry('02 spaced.md', phaseText('x')),
        entry('notes.txt', 'x'),
        { name: 'extra', kind: 'directory' },
      ),
      PHASES,
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      expect.stringMatching(/^phases\/1-short\.md: the name does not match NN-<name>\.md/),
      expect.stringMatching(/^phases\/02 spaced\.md: the name does not match NN-<name>\.md/),
      expect.stringMatching(/^phases\/notes\.txt: the name does not match NN-<name>\.md/),
      expect.stringMatching(/^phases\/extra is a directory; phases\/ must hold only phase files named NN-<name>\.md/),
    ]);
  });

  it('adds "no phase files" when no entry is a phase file', () => {
    const result = judgeArtifact(phaseDecomposition, dir(entry('plan.md', phaseText('x'))), PHASES);
    expect(!result.ok && result.problems).toEqual([
      expect.stringContaining('phases/plan.md: the name does not match'),
      expect.stringContaining('phases/ has no phase files'),
    ]);
  });

  it('names gaps in the numbering', () => {
    const result = judgeArtifact(
      phaseDecomposition,
      dir(entry('01-a.md', phaseText('A')), entry('02-b.md', phaseText('B')), entry('05-e.md', phaseText('E'))),
      PHASES,
    );
    expect(result).toEqual({
      ok: false,
      problems: ['phases/: the phase numbers must run from 01 to 05 without gaps; found 01, 02, 05 (missing 03, 04)'],
    });
  });

  it('names a number used twice, and a numbering that does not start at 01', () => {
    const result = judgeArtifact(
      phaseDecomposition,
      dir(entry('00-zero.md', phaseText('Z')), entry('01-a.md', phaseText('A')), entry('01-b.md', phaseText('B'))),
      PHASES,
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        'phases/: number 01 is used by 2 files (01-a.md, 01-b.md); each phase needs its own number',
        'phases/: the phase numbers must run from 01 to 01 without gaps; found 00, 01 (00 is not allowed, numbering starts at 01)',
      ],
    });
    expect(
      numberingProblems([
        { number: 3, file: 'phases/03-c.md' },
        { number: 2, file: 'phases/02-b.md' },
      ]),
    ).toEqual(['phases/: the phase numbers must run from 01 to 03 without gaps; found 02, 03 (missing 01)']);
  });

  it('names each phase file under the minimum size with its actual and minimum size', () => {
    const result = judgeArtifact(
      phaseDecomposition,
      dir(entry('01-a.md', phaseText('A')), entry('02-b.md', '# B\n')),
      PHASES,
    );
    expect(result).toEqual({
      ok: false,
      problems: [`phases/02-b.md is too small: 4 bytes, the minimum is 100 bytes (${path.join(PHASES, '02-b.md')})`],
    });
  });

  it('takes the title from the first heading, else from the name', () => {
    expect(phaseTitle('intro\n\n## Storage layer ##\n# Later', 'x')).toBe('Storage layer');
    expect(phaseTitle('no heading here', 'storage-layer_v2')).toBe('storage layer v2');
  });
});

describe('checkBarrier on disk', () => {
  let stateDir: string;
  const pipeline = () => path.join(stateDir, 'pipeline');
  const write = async (relative: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(pipeline(), relative)), { recursive: true });
    await fs.writeFile(path.join(pipeline(), relative), text);
  };

  beforeEach(async () => {
    stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pipeline-barrier-'));
  });

  afterEach(async () => {
    await fs.rm(stateDir, { recursive: true, force: true });
  });

  it('passes a valid artifact set, handing on text, the decomposition and the phase files', async () => {
    await write('research.md', REPORT);
    await write('decomposition.json', JSON.stringify(DECOMPOSITION));
    await write('plan.md', PLAN);
    await write('phases/01-store.md', phaseText('Store'));
    await write('phases/02-resume.md', phaseText('Resume'));

    expect(await checkBarrier(research, stateDir)).toEqual({ ok: true, value: REPORT });
    expect(await checkBarrier(decomposition, stateDir)).toEqual({ ok: true, value: DECOMPOSITION });
    expect(await checkBarrier(planning, stateDir)).toEqual({ ok: true, value: PLAN });
    const phases = await checkBarrier(phaseDecomposition, stateDir);
    expect(phases.ok && phases.value.map((p) => [p.number, p.name, p.file, p.title])).toEqual([
      [1, 'store', 'phases/01-store.md', 'Store'],
      [2, 'resume', 'phases/02-resume.md', 'Resume'],
    ]);
  });

  it('names the absolute path of every missing artifact', async () => {
    for (const [phase, relative] of [
      [research, 'research.md'],
      [decomposition, 'decomposition.json'],
      [planning, 'plan.md'],
      [phaseDecomposition, 'phases/'],
    ] as const) {
      const result = await checkBarrier(phase, stateDir);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.problems[0]).toContain(`${relative} is missing`);
      expect(!result.ok && result.problems[0]).toContain(path.join(stateDir, 'pipeline', relative));
    }
  });

  it('sees a missing state directory as a missing artifact, and a directory where a file should be', async () => {
    expect((await checkBarrier(research, path.join(stateDir, 'nope'))).ok).toBe(false);
    await fs.mkdir(path.join(pipeline(), 'plan.md'), { recursive: true });
    await write('phases', 'not a directory');
    expect(await checkBarrier(planning, stateDir)).toEqual({
      ok: false,
      problems: [`plan.md at ${path.join(pipeline(), 'plan.md')} is a directory; expected a file`],
    });
    expect(await checkBarrier(phaseDecomposition, stateDir)).toEqual({
      ok: false,
      problems: [`phases/ at ${path.join(pipeline(), 'phases/')} is a file; expected a directory of phase files`],
    });
  });

  it('finds bad phase files on disk and ignores dot files', async () => {
    await write('phases/01-store.md', phaseText('Store'));
    await write('phases/03-tiny.md', 'tiny');
    await write('phases/.gitkeep', '');
    await fs.mkdir(path.join(pipeline(), 'phases', 'drafts'));
    const result = await checkBarrier(phaseDecomposition, stateDir);
    expect(!result.ok && result.problems).toEqual([
      expect.stringMatching(/^phases\/drafts is a directory/),
      'phases/: the phase numbers must run from 01 to 03 without gaps; found 01, 03 (missing 02)',
      `phases/03-tiny.md is too small: 4 bytes, the minimum is 100 bytes (${path.join(pipeline(), 'phases', '03-tiny.md')})`,
    ]);
  });

  it('turns an unreadable artifact into a problem instead of rejecting', async () => {
    const denied = Object.assign(new Error('EACCES: permission denied, stat'), { code: 'EACCES' });
    const fakeFs: BarrierFs = {
      stat: () => Promise.reject(denied),
      readFile: () => Promise.reject(new Error('unused')),
      readdir: () => Promise.reject(new Error('unused')),
    };
    expect(await checkBarrier(research, '/s', fakeFs)).toEqual({
      ok: false,
      problems: [
        `research.md cannot be read at ${path.join('/s', 'pipeline', 'research.md')}: EACCES: permission denied, stat`,
      ],
    });
  });
});
