/** A tiny store of on-screen notifications, usable from React and from the query cache. */
/** A link a notice offers after its text (Receipt S-000123), inside the app. */
export type NoticeLink = { to: string; label: string };
export type Notice = { id: number; kind: 'error' | 'success'; text: string; link?: NoticeLink };

type Listener = () => void;
const listeners = new Set<Listener>();
let notices: readonly Notice[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

const LIFETIME = { success: 5_000, error: 10_000 } as const;

function emit() {
  for (const listener of listeners) listener();
}

export function getNotices(): readonly Notice[] {
  return notices;
}

export function subscribeNotices(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function dismiss(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  notices = notices.filter((notice) => notice.id !== id);
  emit();
}

function push(kind: Notice['kind'], text: string, link?: NoticeLink): void {
  // The same sentence twice in a row (two failing queries) shows once.
  const same = notices.find((notice) => notice.kind === kind && notice.text === text);
  if (same) dismiss(same.id);
  const id = nextId++;
  notices = [...notices.slice(-3), { id, kind, text, ...(link ? { link } : {}) }];
  timers.set(
    id,
    setTimeout(() => dismiss(id), LIFETIME[kind]),
  );
  emit();
}

export const notify = {
  error: (text: string) => push('error', text),
  success: (text: string, link?: NoticeLink) => push('success', text, link),
  /** Takes away the notices saying `text`, once it no longer holds (the server answers again). */
  withdraw: (text: string) => {
    for (const notice of notices.filter((one) => one.text === text)) dismiss(notice.id);
  },
  clear: () => {
    for (const id of timers.keys()) dismiss(id);
  },
};
