import { useEffect } from 'react';
import { PRODUCT_NAME } from '../../shared/product';

/** Names the browser tab after the screen, so tabs and history entries are told apart. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
