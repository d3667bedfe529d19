export function fingerprint(): string;
export function isBuilt(): boolean;
export function build(outDir?: string): Promise<void>;
export function ensureBuilt(): Promise<void>;
