import { readFileSync } from 'node:fs';

/** The resident memory of process `pid` in MB (Linux), or NaN where /proc is not there. */
function residentMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface ExportResult {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  /** The server's resident memory before the export and the most it reached during it, MB. */
  memoryBeforeMb: number;
  memoryPeakMb: number;
  status: number;
}

/**
 * Downloads `url` (a CSV export) as a client would, counting its rows as they arrive, while
 * sampling the server's resident memory every 50 ms: the rate, and how much memory the export
 * took on the server (it streams, so it must not grow with the rows).
 */
export async function timeExport(
  url: string,
  headers: Record<string, string>,
  pid: number,
): Promise<ExportResult> {
  const memoryBeforeMb = residentMb(pid);
  let memoryPeakMb = memoryBeforeMb;
  const sampler = setInterval(() => {
    memoryPeakMb = Math.max(memoryPeakMb, residentMb(pid));
  }, 50);
  const started = performance.now();
  let rows = 0;
  let status = 0;
  try {
    const res = await fetch(url, { headers });
    status = res.status;
    const reader = res.body?.getReader();
    if (!reader) throw new Error('the export answered no body');
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) if (byte === 10) rows++;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  // The header row is not a data row.
  const dataRows = Math.max(0, rows - 1);
  return { rows: dataRows, seconds, rowsPerSecond: dataRows / seconds, memoryBeforeMb, memoryPeakMb, status };
}
