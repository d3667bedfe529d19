/** A lone UTF-16 surrogate: half of a character, which no database or client can store as text. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds a NUL character or invalid UTF-16 (DESIGN §7: always a 400). */
export function isBadText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/**
 * Where inside a parsed JSON value a string (or an object key) is bad text: its dotted path ('' for
 * the value itself), or undefined when all of it is good.
 */
export function badTextPath(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return isBadText(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const at = path ? `${path}.${key}` : key;
    if (isBadText(key)) return at;
    const found = badTextPath(item, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether a request target's path or query carries bad text once decoded: a NUL, an encoded lone
 * surrogate, or a percent sequence that is not UTF-8 at all.
 */
export function urlHoldsBadText(url: string): boolean {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? '' : url.slice(mark + 1);
  const parts = [path, ...query.split('&').flatMap((pair) => pair.split('='))];
  for (const part of parts) {
    if (!part.includes('%')) {
      if (isBadText(part)) return true;
      continue;
    }
    try {
      if (isBadText(decodeURIComponent(part.replaceAll('+', ' ')))) return true;
    } catch {
      return true;
    }
  }
  return false;
}
