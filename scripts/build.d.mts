export function fingerprint(): string;
export function isBuilt(): boolean;
export function build(): Promise<void>;
export function ensureBuilt(): Promise<void>;
