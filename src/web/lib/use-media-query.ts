import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches the window now, followed as it changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (change: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', change);
      return () => list.removeEventListener('change', change);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** Phones: up to 640 px wide, where lists show as cards (Tailwind's `sm` starts at 640). */
export const PHONE = '(max-width: 640px)';
/** Below the full sidebar (Tailwind's `md`): the menu sits behind a Menu button. */
export const NARROW = '(max-width: 767.98px)';
