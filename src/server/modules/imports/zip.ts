import { setImmediate as nextTurn } from 'node:timers/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import { AppError, badRequest } from '../../lib/errors';

/**
 * The few entries of a zip archive that a reader asks for, and their bytes as they are inflated,
 * never more than a bound (decision 0035). The archive is read from its end (the central
 * directory), so entries nobody asks for are never touched, whatever they claim to hold.
 */

/** One entry as the central directory describes it. */
export type ZipEntry = {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  /** The size it declares once inflated. */
  size: number;
  /** Where its local header starts. */
  offset: number;
};

export const NOT_XLSX =
  'The file is not a valid .xlsx workbook; save it again as an Excel workbook (.xlsx) or as CSV.';

/** The piece of inflated bytes read at a time (and the most a stored entry is handed over in). */
const CHUNK = 64 * 1024;

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX_COMMENT = 0xffff;

/** A 64-bit size or offset, as a number; past what a number holds exactly, past any file too. */
const u64 = (file: Buffer, at: number) => Number(file.readBigUInt64LE(at));

/** Where the central directory starts and how long it is. */
function directoryOf(file: Buffer): { start: number; end: number } {
  const last = file.length - 22;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (file.readUInt32LE(at) !== END_OF_DIRECTORY) continue;
    let size = file.readUInt32LE(at + 12);
    let start = file.readUInt32LE(at + 16);
    if (
      (size === 0xffffffff || start === 0xffffffff) &&
      at >= 20 &&
      file.readUInt32LE(at - 20) === ZIP64_LOCATOR
    ) {
      const record = u64(file, at - 12);
      if (record + 56 > at - 20 || file.readUInt32LE(record) !== ZIP64_END) break;
      size = u64(file, record + 40);
      start = u64(file, record + 48);
    }
    if (start + size > at) break;
    return { start, end: start + size };
  }
  throw badRequest(NOT_XLSX);
}

/** The zip64 extra field's sizes and offset, for the 32-bit fields that say "see zip64". */
function zip64Fields(file: Buffer, entry: ZipEntry, extra: number, extraEnd: number): void {
  for (let at = extra; at + 4 <= extraEnd; ) {
    const id = file.readUInt16LE(at);
    const length = file.readUInt16LE(at + 2);
    if (at + 4 + length > extraEnd) throw badRequest(NOT_XLSX);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      const take = () => {
        if (field + 8 > at + 4 + length) throw badRequest(NOT_XLSX);
        const value = u64(file, field);
        field += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = take();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
      if (entry.offset === 0xffffffff) entry.offset = take();
      return;
    }
    at += 4 + length;
  }
}

/**
 * The entries of these names (the first of each), read from the central directory; a name the
 * archive lacks is not in the answer. A file that is not a zip is a 400.
 */
export function zipEntries(file: Buffer, names: readonly string[]): Map<string, ZipEntry> {
  if (file.length < 22) throw badRequest(NOT_XLSX);
  const wanted = new Map(names.map((name) => [name, Buffer.byteLength(name)]));
  const lengths = new Set(wanted.values());
  const found = new Map<string, ZipEntry>();
  const { start, end } = directoryOf(file);
  for (let at = start; at < end && found.size < wanted.size; ) {
    if (at + 46 > end || file.readUInt32LE(at) !== DIRECTORY_ENTRY) throw badRequest(NOT_XLSX);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const next = at + 46 + nameLength + extraLength + file.readUInt16LE(at + 32);
    if (next > end) throw badRequest(NOT_XLSX);
    const flags = file.readUInt16LE(at + 8);
    // Bit 11: the name is UTF-8; otherwise it is the old PC code page, ASCII for a workbook's parts.
    const name = lengths.has(nameLength)
      ? file.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength)
      : '';
    if (wanted.get(name) === nameLength && !found.has(name)) {
      const entry: ZipEntry = {
        name,
        flags,
        method: file.readUInt16LE(at + 10),
        crc: file.readUInt32LE(at + 16),
        compressedSize: file.readUInt32LE(at + 20),
        size: file.readUInt32LE(at + 24),
        offset: file.readUInt32LE(at + 42),
      };
      zip64Fields(file, entry, at + 46 + nameLength, at + 46 + nameLength + extraLength);
      found.set(name, entry);
    }
    at = next;
  }
  return found;
}

/** The answer for an entry declared or found larger than what may be read. */
export function unpacksTooLarge(label: string, limit: number): AppError {
  const verb = label.endsWith('s') ? 'unpack' : 'unpacks';
  return new AppError(
    413,
    `The workbook's ${label} ${verb} to more than the ${limit / 2 ** 20} MB an import reads; save the sheet as CSV and upload that.`,
  );
}

const damaged = (label: string) =>
  badRequest(
    `The workbook is damaged: its ${label} ${label.endsWith('s') ? 'unpack' : 'unpacks'} to more than its zip directory says; save it again and upload it.`,
  );

/**
 * An entry's bytes as they are inflated, a chunk at a time, each handed over on a turn of the
 * event loop of its own. Refused before inflating anything when its declared size passes `limit`,
 * and the moment it inflates past its declared size (so never past `limit` either); its CRC-32 and
 * size are checked at its end. Stopping early (the caller returns) stops the inflater.
 */
export async function* entryBytes(
  file: Buffer,
  entry: ZipEntry,
  label: string,
  limit: number,
): AsyncGenerator<Buffer> {
  if (entry.flags & 0x1)
    throw badRequest('The workbook is protected by a password; save it without one and upload it again.');
  if (entry.size > limit) throw unpacksTooLarge(label, limit);
  const at = entry.offset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== LOCAL_HEADER) throw badRequest(NOT_XLSX);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > file.length) throw badRequest(NOT_XLSX);
  const data = file.subarray(start, end);
  let size = 0;
  let crc = 0;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw damaged(label);
    for (let from = 0; from < data.length; from += CHUNK) {
      const chunk = data.subarray(from, from + CHUNK);
      size += chunk.length;
      crc = crc32(chunk, crc);
      yield chunk;
      await nextTurn();
    }
  } else if (entry.method === 8) {
    // Inflated only as fast as the chunks are taken: the inflater waits while one is unread.
    const inflater = createInflateRaw({ chunkSize: CHUNK });
    inflater.on('error', () => {});
    inflater.end(data);
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > entry.size) throw damaged(label);
        crc = crc32(chunk, crc);
        yield chunk;
        await nextTurn();
      }
    } catch (error) {
      throw error instanceof AppError ? error : badRequest(NOT_XLSX);
    } finally {
      inflater.destroy();
    }
  } else
    throw badRequest(
      'The workbook is compressed in a way that cannot be read; save it again as an Excel workbook (.xlsx).',
    );
  if (size !== entry.size || crc !== entry.crc) throw badRequest(NOT_XLSX);
}
