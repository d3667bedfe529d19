/** A lone UTF-16 surrogate: half of a character, which no database or client can store as text. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds a NUL character or invalid UTF-16 (DESIGN §7: always a 400). */
export function isBadText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/**
 * Where inside a parsed JSON value a string (or an object key) is bad text: its dotted path ('' for
 * the value itself), or undefined when all of it is good. The path is built only once something is
 * found: a body of many small values is walked without a string or an array made per value.
 */
export function badTextPath(value: unknown): string | undefined {
  const path: string[] = [];
  return holdsBadText(value, path, 0) ? path.reverse().join('.') : undefined;
}

/** Whether `value` holds bad text; if so, `path` ends with where, innermost first. */
function holdsBadText(value: unknown, path: string[], depth: number): boolean {
  if (typeof value === 'string') return isBadText(value);
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (holdsBadText(value[i], path, depth + 1)) {
        path.push(String(i));
        return true;
      }
    return false;
  }
  for (const key in value)
    if (isBadText(key) || holdsBadText((value as Record<string, unknown>)[key], path, depth + 1)) {
      path.push(key);
      return true;
    }
  return false;
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
