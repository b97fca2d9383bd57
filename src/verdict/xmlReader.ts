/**
 * XML read tolerantly, as elements and text in document order: what a document holds up to where
 * it breaks (a report cut off by a runner killed mid-write, a stray or a missing closing tag), and
 * what was wrong with it. The lexing is sax's, in strict mode with the five XML entities only;
 * the nesting is kept here, so that every element opened is closed, and the problems are said in
 * this module's words. Pure, bounded (sax is given the input in chunks, and garbage stops the
 * reading), never throws.
 */
import sax from 'sax';

export interface XmlHandler {
  /** An element opens, `depth` 0 for the root; `false` stops the reading, nothing after is read or reported. */
  open(name: string, attrs: Record<string, string>, depth: number): boolean | void;
  /** Character data: entities decoded, CDATA sections verbatim; a long text comes in pieces. */
  text(text: string): void;
  /** An element closes. Each one opened does (until the reading stops), those left open by a mismatched closing tag or the end too. */
  close(name: string): void;
  /** Something wrong with the XML; the events around it are what could be read. */
  problem(message: string): void;
}

/** sax keeps its buffers to about this size when it is given the input in chunks of it. */
const CHUNK = 64 * 1024;
const OPTIONS: sax.SAXOptions & { strictEntities: boolean } = { strictEntities: true };
const CLOSING_TAG = /<\/\s*([^\s>]+)/y;
/** A "<" that starts markup: a tag, a closing tag, a comment, a declaration. */
const MARKUP = /<[\p{L}_:!?/]/gu;
/**
 * The errors sax may report before the reading stops. Garbage makes one of nearly every character
 * (in a tag that never ends, say), each a few microseconds; a report, even a sloppy one, has few.
 */
const MAX_ERRORS = 100_000;

class TooManyErrors extends Error {}

/**
 * The name of sax's lexer state (sax.STATE and parser.state, which its type declarations leave
 * out): whether it is between markup, and which markup the input ended inside.
 */
const STATE_NAMES = (sax as unknown as { STATE: Record<number, string> }).STATE;
const stateOf = (parser: sax.SAXParser) => STATE_NAMES[(parser as unknown as { state: number }).state] ?? '';
const BETWEEN_MARKUP = /^(BEGIN|BEGIN_WHITESPACE|TEXT)$/;

/**
 * Reads `xml`, calling `handler` for each element and the text inside the root element. Comments,
 * processing instructions, the doctype and a byte-order mark are skipped. Well-formedness errors
 * sax recovers from without losing text (an undefined entity, kept as written; a "<" in an
 * attribute value; an unquoted value) are not problems; a closing tag that closes nothing,
 * elements not closed, a second root element, more than MAX_ERRORS errors (the reading stops at
 * either) and an input that ends inside markup or elements are.
 */
export function readXml(xml: string, handler: XmlHandler): void {
  const parser = sax.parser(true, OPTIONS);
  const st: ReadState = { open: [], implicit: [], stopped: false, skipped: 0, errors: 0 };
  listen(parser, xml, handler, st);
  try {
    writeChunks(parser, xml, st);
    if (st.stopped) return;
    const markupAt = st.skipped + parser.startTagPosition - 1;
    const cut = unterminated(stateOf(parser), xml.slice(markupAt, markupAt + 100));
    if (cut) handler.problem(cut);
    parser.flush(); // the text and CDATA read last, a cut-off section's too
  } catch (error) {
    // sax throws on a few inputs (an attribute named hasOwnProperty): what was read stands.
    handler.problem(
      error instanceof TooManyErrors
        ? `the XML is too malformed to read further (over ${MAX_ERRORS.toLocaleString('en')} errors)`
        : `the XML could not be read further (${String(error).slice(0, 200)})`,
    );
  }
  if (st.open.length > 0) {
    handler.problem(`the XML ends inside ${elements(st.open, ' ')}`);
    for (const name of st.open.splice(0).reverse()) handler.close(name);
  }
}

/** What a reading keeps while sax calls back. */
interface ReadState {
  open: string[];
  implicit: string[];
  root?: string;
  stopped: boolean;
  /** Characters of text outside the root element not given to sax: its positions are that many behind. */
  skipped: number;
  errors: number;
}

/** sax's callbacks, handing elements and text to `handler`. */
function listen(parser: sax.SAXParser, xml: string, handler: XmlHandler, st: ReadState): void {
  parser.onerror = (error) => {
    if (++st.errors > MAX_ERRORS) throw new TooManyErrors();
    const unmatched = /^Unmatched closing tag: (.*)/.exec(error.message);
    if (unmatched && !st.stopped) handler.problem(`</${unmatched[1]}> closes nothing`);
    parser.resume();
  };
  parser.onopentag = (tag) => {
    if (st.stopped) return;
    if (st.open.length === 0 && st.root !== undefined) {
      handler.problem(`content after the root element </${st.root}> ignored`);
      st.stopped = true;
      return;
    }
    st.root ??= tag.name;
    if (handler.open(tag.name, tag.attributes as Record<string, string>, st.open.length) === false) st.stopped = true;
    else st.open.push(tag.name);
  };
  parser.onclosetag = (name) => {
    if (st.stopped) return;
    st.open.pop();
    handler.close(name);
    // sax closes the elements left open on the way to a closing tag's match: the tag read says which.
    CLOSING_TAG.lastIndex = st.skipped + parser.startTagPosition - 1;
    const tag = CLOSING_TAG.exec(xml);
    if (tag && tag[1] !== name) st.implicit.push(name);
    else if (st.implicit.length > 0) {
      handler.problem(`${elements(st.implicit, ', ')} not closed before </${name}>`);
      st.implicit = [];
    }
  };
  parser.ontext = (text) => {
    if (!st.stopped && st.open.length > 0) handler.text(text);
  };
  parser.oncdata = parser.ontext;
}

/** The input given to sax in chunks; outside the root element, from one markup to the next. */
function writeChunks(parser: sax.SAXParser, xml: string, st: ReadState): void {
  let at = 0;
  while (at < xml.length && !st.stopped) {
    let end = Math.min(at + CHUNK, xml.length);
    if (st.open.length === 0) {
      // Outside the root element text means nothing, and sax makes an error of each of its
      // characters: skip to the next markup, given to sax up to its next ">".
      if (BETWEEN_MARKUP.test(stateOf(parser))) {
        MARKUP.lastIndex = at;
        const next = MARKUP.exec(xml)?.index;
        if (next === undefined) break;
        st.skipped += next - at;
        at = next;
      }
      const gt = xml.indexOf('>', at);
      end = gt === -1 ? xml.length : gt + 1;
    }
    parser.write(xml.slice(at, end));
    at = end;
  }
}

/** The markup the input ends inside, from sax's state and the source from its last "<". */
function unterminated(state: string, markup: string): string | undefined {
  if (state.startsWith('COMMENT')) return 'unterminated comment';
  if (state.startsWith('CDATA')) return 'unterminated CDATA section';
  if (state.startsWith('CLOSE_TAG')) return 'unterminated closing tag';
  if (/^(SGML_DECL|DOCTYPE|PROC_INST)/.test(state)) return 'unterminated declaration';
  if (/^(OPEN_TAG|ATTRIB)/.test(state)) return `unterminated tag <${/^<([^\s/>]*)/.exec(markup)?.[1] ?? ''}`;
  return undefined; // between markup, or in an entity reference ("&am")
}

/** Element names for a problem message, the first few only (the nesting may be deep). */
function elements(names: string[], separator: string): string {
  const shown = names
    .slice(0, 6)
    .map((n) => `<${n}>`)
    .join(separator);
  return names.length > 6 ? `${shown}${separator}… (${names.length - 6} more)` : shown;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes the five XML entities and numeric character references; anything else is left as
 * written. For XML-escaped text met outside a document (readXml decodes its own).
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const valid = Number.isFinite(code) && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}
