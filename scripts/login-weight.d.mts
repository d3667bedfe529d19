export const LOGIN_BUDGET_BYTES: number;
export type ScriptWeight = { file: string; bytes: number; gzip: number };
export function loginWeight(
  url: string,
  options?: { executablePath?: string },
): Promise<{ scripts: ScriptWeight[]; gzip: number; later: ScriptWeight[]; laterGzip: number }>;
export function serveWeb(dir?: string): Promise<{ url: string; close: () => Promise<void> }>;
export function kB(bytes: number): string;
