/**
 * Where JSON.parse failed, said to a person: line, column and offset of the first place a checkpoint
 * file stops being JSON (RFC 8259), found by a scanner of its own (V8 does not always give a position).
 */

/** "invalid JSON at line 3, column 5 (offset 42): unexpected '}'" — V8 does not always give a position. */
export function describeJsonError(text: string, error: unknown): string {
  if (text.trim() === '')
    return 'the file is empty (expected a JSON object); it was probably cut short while being written';
  const found = findJsonError(text);
  if (!found) return `invalid JSON: ${error instanceof Error ? error.message : String(error)}`;
  const before = text.slice(0, found.offset);
  const line = before.split('\n').length;
  const column = found.offset - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column} (offset ${found.offset}): ${found.problem}`;
}

/** The first offset at which `text` stops being JSON (RFC 8259), or undefined when it is valid. */
export function findJsonError(text: string): { offset: number; problem: string } | undefined {
  try {
    new JsonScanner(text).document();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntax) return { offset: error.offset, problem: error.problem };
    throw error;
  }
}

class JsonSyntax extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** A JSON scanner that only says where the text stops being JSON; iterative over containers, so deep nesting cannot overflow the stack. */
class JsonScanner {
  private i = 0;
  private readonly stack: ('{' | '[')[] = [];

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    while (this.stack.length > 0) this.value();
    this.ws();
    if (this.i < this.text.length) this.fail('unexpected content after the JSON value');
  }

  private fail(problem?: string): never {
    const { text, i } = this;
    if (i >= text.length) throw new JsonSyntax(i, 'unexpected end of input (the file may have been cut short)');
    throw new JsonSyntax(i, problem ?? `unexpected ${JSON.stringify(text[i])}`);
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i] as string)) this.i++;
  }

  private literal(word: string): void {
    for (const ch of word) {
      if (this.text[this.i] !== ch) this.fail();
      this.i++;
    }
  }

  private digits(): void {
    const start = this.i;
    while (this.i < this.text.length && (this.text[this.i] as string) >= '0' && (this.text[this.i] as string) <= '9')
      this.i++;
    if (this.i === start) this.fail();
  }

  private number(): void {
    const { text } = this;
    if (text[this.i] === '-') this.i++;
    if (text[this.i] === '0') this.i++;
    else this.digits();
    if (text[this.i] === '.') {
      this.i++;
      this.digits();
    }
    if (text[this.i] === 'e' || text[this.i] === 'E') {
      this.i++;
      if (text[this.i] === '+' || text[this.i] === '-') this.i++;
      this.digits();
    }
  }

  private string(): void {
    const { text } = this;
    this.i++; // opening quote
    for (;;) {
      if (this.i >= text.length) this.fail();
      const ch = text.charCodeAt(this.i);
      if (ch === 0x22) return void this.i++;
      if (ch < 0x20) this.fail('control character in a string (escape it)');
      if (ch === 0x5c) {
        this.i++;
        const esc = text[this.i];
        if (esc === 'u') {
          for (let k = 0; k < 4; k++) {
            this.i++;
            if (!/[0-9a-fA-F]/.test(text[this.i] ?? '')) this.fail('invalid \\u escape');
          }
        } else if (esc === undefined || !'"\\/bfnrt'.includes(esc)) this.fail('invalid escape in a string');
      }
      this.i++;
    }
  }

  private value(): void {
    this.ws();
    const ch = this.text[this.i];
    if (ch === '{' || ch === '[') {
      this.stack.push(ch);
      this.i++;
      this.ws();
      if (this.text[this.i] === (ch === '{' ? '}' : ']')) {
        this.stack.pop();
        this.i++;
        this.closeContainers();
        return;
      }
      if (ch === '{') this.key();
      return;
    }
    if (ch === '"') this.string();
    else if (ch === 't') this.literal('true');
    else if (ch === 'f') this.literal('false');
    else if (ch === 'n') this.literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) this.number();
    else this.fail();
    this.closeContainers();
  }

  private key(): void {
    this.ws();
    if (this.text[this.i] !== '"') this.fail('expected a double-quoted property name');
    this.string();
    this.ws();
    if (this.text[this.i] !== ':') this.fail("expected ':' after a property name");
    this.i++;
  }

  /** After a value: close finished containers, or step to the next element. */
  private closeContainers(): void {
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (!top) return;
      this.ws();
      const close = top === '{' ? '}' : ']';
      if (this.text[this.i] === close) {
        this.stack.pop();
        this.i++;
        continue;
      }
      if (this.text[this.i] !== ',') this.fail(`expected ',' or '${close}'`);
      this.i++;
      if (top === '{') this.key();
      return;
    }
  }
}
