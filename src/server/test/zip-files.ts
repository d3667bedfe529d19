import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Zip archives and workbooks built byte by byte for the tests, hostile ones included: no binary
 * file is committed, and an entry may declare any size, whatever it holds.
 */

/**
 * An entry: its text or bytes (deflated here), or bytes already deflated with what they declare.
 * `zip64`: its sizes are written in a zip64 extra field, as writers of large archives do.
 */
export type ZipPart = (
  | { name: string; data: string | Uint8Array; stored?: boolean }
  | { name: string; deflated: Uint8Array; size: number; crc?: number }
) & { zip64?: boolean };

/** A zip archive of the parts, in order, with its central directory and its end record. */
export function zipFile(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    let body: Uint8Array;
    let size: number;
    let crc: number;
    let method = 8;
    if ('data' in part) {
      const data = typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data;
      size = data.length;
      crc = crc32(data);
      method = part.stored ? 0 : 8;
      body = part.stored ? data : deflateRawSync(data);
    } else {
      body = part.deflated;
      size = part.size;
      crc = part.crc ?? 0;
    }
    const extra = Buffer.alloc(part.zip64 ? 20 : 0);
    if (part.zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(body.length), 12);
    }
    const size32 = part.zip64 ? 0xffffffff : Math.min(size, 0xffffffff);
    const compressed32 = part.zip64 ? 0xffffffff : body.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed32, 18);
    local.writeUInt32LE(size32, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    locals.push(local, name, extra, Buffer.from(body));
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(method, 10);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(compressed32, 20);
    entry.writeUInt32LE(size32, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt16LE(extra.length, 30);
    entry.writeUInt32LE(offset, 42);
    directory.push(entry, name, extra);
    offset += 30 + name.length + extra.length + body.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

/**
 * `megabytes` MB of spaces, deflated: one flushed block of 1 MB repeated (each block stands on its
 * own), then an empty last block. 800 MB take 830 kB, and no test ever holds them unpacked.
 */
export function deflatedSpaces(megabytes: number): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(1 << 20, 0x20), {
    level: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  return Buffer.concat([...Array.from({ length: megabytes }, () => block), Buffer.from([0x03, 0x00])]);
}

/** An entry of `megabytes` MB of spaces, declaring `declared` bytes (its true size unless given). */
export function spacesPart(name: string, megabytes: number, declared = megabytes * 2 ** 20): ZipPart {
  return { name, deflated: deflatedSpaces(megabytes), size: declared };
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A text cell (an inline string) at `ref`. */
export const textCell = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/**
 * A workbook as Excel lays one out: content types, the package's and the workbook's
 * relationships, the workbook (one sheet), the sheet whose `<sheetData>` holds `rows`, and
 * shared strings and styles when given. A part of `parts` with the name of one of these replaces
 * it; any other is added.
 */
export function workbookFile(
  rows: string,
  options: { sharedStrings?: string[]; styles?: string; date1904?: boolean; parts?: ZipPart[] } = {},
): Buffer {
  const strings = options.sharedStrings;
  const defaults: ZipPart[] = [
    {
      name: '[Content_Types].xml',
      data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr${options.date1904 ? ' date1904="1"' : ''}/><sheets><sheet name="Products" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${rows}</sheetData></worksheet>`,
    },
    ...(strings
      ? [
          {
            name: 'xl/sharedStrings.xml',
            data: `${XML}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si>${s}</si>`).join('')}</sst>`,
          },
        ]
      : []),
    ...(options.styles ? [{ name: 'xl/styles.xml', data: `${XML}${options.styles}` }] : []),
  ];
  const extra = options.parts ?? [];
  const replaced = new Set(extra.map((part) => part.name));
  return zipFile([...defaults.filter((part) => !replaced.has(part.name)), ...extra]);
}
