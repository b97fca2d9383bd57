/** A test unit of a test file (testUnits.ts reads them; the scanners of each language find them). */
export type TestLanguage = 'python' | 'javascript' | 'go';

export interface TestUnit {
  /** Its name: `test_x`, `TestA::test_x` (pytest's id form), `describe › it` (jest's), `TestX`. */
  name: string;
  /** Its own name, without the enclosing unit's. */
  ownName: string;
  /** Where it is in the file's text (offsets, end exclusive; whole lines where it stands alone). */
  start: number;
  end: number;
  /** Its head: Python's decorators and `def`/`class` line, the call chain of a JS unit (`it.skip`), Go's signature. */
  head: string;
  /** The units inside it (a test class's methods, a describe's tests); a unit with children is a group. */
  children: TestUnit[];
  /** Where its children are (the body's range), when it can hold them. */
  body?: { start: number; end: number };
}
