/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { newVersionHandlers } from './update-notice';

/**
 * Installs the service worker that keeps the app's every built file, so the app opens with no
 * network (DESIGN §21; vite.config.ts says what it keeps). Only the production build has one.
 * It registers once the page has loaded, not competing with the first screen. A new version
 * waits for the user's Reload (update-notice.tsx).
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const takeOver: () => Promise<void> = registerSW(newVersionHandlers(() => takeOver()));
}
