export function demoHost(argv: readonly string[]): string;
