/** What the log keeps of an error: never a failed statement's parameters or a row's values. */
export function safeErrorForLog(error: unknown): {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
} {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const withoutParams = (text: string) => text.split(/\nparams:/)[0] ?? '';
  const { cause, code } = error as { cause?: unknown; code?: unknown };
  return {
    type: error.name,
    message: withoutParams(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(cause instanceof Error ? { cause: { type: cause.name, message: withoutParams(cause.message) } } : {}),
    // Only the frames: the stack's first lines repeat the message, parameters included.
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}
