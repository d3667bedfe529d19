import { badRequest } from '../../lib/errors';
import { NOT_XLSX } from './zip';

/**
 * A small streaming reader of the XML a workbook's parts are written in: text is pushed in pieces
 * and each element's start, end and text go to a handler as they are found. It knows elements,
 * attributes, the five named entities and character references, comments and CDATA; a document
 * type (which could define entities of its own) is refused. Nothing is kept between pieces but an
 * unfinished tag (MAX_TAG at most) or the few characters of an entity cut in two.
 */

export interface XmlHandler {
  /** An element starts: its name without prefix, its attributes' text (see attributeOf). */
  open(name: string, attributes: string): void;
  /** An element ends (right after open for one that closes itself). */
  close(name: string): void;
  /** Whether text is wanted now: text outside wanted elements is skipped unread. */
  readonly collecting: boolean;
  /** Text, entities decoded; one text may come in several pieces. */
  text(text: string): void;
}

/** The longest tag: a workbook's tags are short; one this long is not a workbook. */
const MAX_TAG = 1 << 20;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g;

/** Text with its entities decoded; an unknown or impossible one stays as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name] ?? whole;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * One attribute's value (entities decoded) from an element's attributes' text, by its name
 * without prefix (`id` finds `r:id`); undefined when it has none or the text is not attributes.
 */
export function attributeOf(attributes: string, wanted: string): string | undefined {
  const n = attributes.length;
  let i = 0;
  for (;;) {
    while (i < n && isSpace(attributes.charCodeAt(i))) i++;
    if (i >= n) return undefined;
    const start = i;
    while (i < n && attributes[i] !== '=' && !isSpace(attributes.charCodeAt(i))) i++;
    const name = attributes.slice(start, i);
    while (i < n && isSpace(attributes.charCodeAt(i))) i++;
    if (attributes[i] !== '=') return undefined;
    i++;
    while (i < n && isSpace(attributes.charCodeAt(i))) i++;
    const quote = attributes[i];
    if (quote !== '"' && quote !== "'") return undefined;
    const close = attributes.indexOf(quote, i + 1);
    if (close < 0) return undefined;
    if (localName(name) === wanted && !name.startsWith('xmlns'))
      return decodeEntities(attributes.slice(i + 1, close));
    i = close + 1;
  }
}

enum Mode {
  Markup,
  Comment,
  Cdata,
}

export class XmlScanner {
  /** The unfinished end of the last piece (a tag, an entity, the end of a comment or CDATA). */
  private carry = '';
  private mode = Mode.Markup;

  constructor(private readonly handler: XmlHandler) {}

  push(piece: string): void {
    const text = this.carry ? this.carry + piece : piece;
    this.carry = '';
    const handler = this.handler;
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.mode !== Mode.Markup) {
        const closing = this.mode === Mode.Comment ? '-->' : ']]>';
        const end = text.indexOf(closing, i);
        // Keep what could be the start of the closing mark for the next piece.
        const stop = end < 0 ? Math.max(i, n - 2) : end;
        if (this.mode === Mode.Cdata && handler.collecting && stop > i) handler.text(text.slice(i, stop));
        if (end < 0) {
          this.carry = text.slice(stop);
          return;
        }
        this.mode = Mode.Markup;
        i = end + 3;
        continue;
      }
      const lt = text.indexOf('<', i);
      const textEnd = lt < 0 ? n : lt;
      if (textEnd > i && handler.collecting) {
        let end = textEnd;
        if (lt < 0) {
          // An entity cut in two by the pieces waits for its end.
          const amp = text.lastIndexOf('&', n - 1);
          if (amp >= i && n - amp < 12 && text.indexOf(';', amp) < 0) end = amp;
        }
        if (end > i) handler.text(decodeEntities(text.slice(i, end)));
        if (end < textEnd) {
          this.carry = text.slice(end);
          return;
        }
      }
      if (lt < 0) return;
      if (text.charCodeAt(lt + 1) === 0x21 /* ! */) {
        if (text.startsWith('<!--', lt)) {
          this.mode = Mode.Comment;
          i = lt + 4;
        } else if (n - lt < 9) {
          this.carry = text.slice(lt);
          return;
        } else if (text.startsWith('<![CDATA[', lt)) {
          this.mode = Mode.Cdata;
          i = lt + 9;
        } else throw badRequest(NOT_XLSX);
        continue;
      }
      const gt = tagEnd(text, lt);
      if (gt < 0) {
        if (n - lt > MAX_TAG) throw badRequest(NOT_XLSX);
        this.carry = text.slice(lt);
        return;
      }
      this.tag(text, lt, gt);
      i = gt + 1;
    }
  }

  /** The end of the part: nothing may be left unfinished. */
  end(): void {
    if (this.mode !== Mode.Markup || this.carry.includes('<')) throw badRequest(NOT_XLSX);
    if (this.carry && this.handler.collecting) this.handler.text(decodeEntities(this.carry));
    this.carry = '';
  }

  private tag(text: string, lt: number, gt: number): void {
    const first = text.charCodeAt(lt + 1);
    if (first === 0x3f /* ? */) return;
    if (first === 0x2f /* / */) {
      this.handler.close(localName(text.slice(lt + 2, gt).trim()));
      return;
    }
    let nameEnd = lt + 1;
    for (; nameEnd < gt; nameEnd++) {
      const c = text.charCodeAt(nameEnd);
      if (c === 0x2f || isSpace(c)) break;
    }
    const empty = text.charCodeAt(gt - 1) === 0x2f;
    const name = localName(text.slice(lt + 1, nameEnd));
    this.handler.open(name, text.slice(nameEnd, empty ? gt - 1 : gt));
    if (empty) this.handler.close(name);
  }
}

/** Where the tag starting at `lt` ends (its `>`, outside quoted attribute values), or -1. */
function tagEnd(text: string, lt: number): number {
  let quote = 0;
  for (let i = lt + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x3e /* > */) return i;
    else if (c === 0x22 || c === 0x27) quote = c;
  }
  return -1;
}
