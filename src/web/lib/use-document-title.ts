import { useEffect } from 'react';

/** Names the browser tab after the screen, so tabs and history entries are told apart. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Inventory MS` : 'Inventory MS';
  }, [title]);
}
