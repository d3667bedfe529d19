import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import pkg from './package.json' with { type: 'json' };

/**
 * The app's shared code (its frame, lib, components, the contracts) and the libraries under it:
 * one chunk, fetched with the app, rather than dozens of small ones shared by different sets of
 * screens, which a page asked for six at a time (HTTP/1.1) before it could render.
 */
const APP_SHARED =
  /src[\\/](web[\\/](app|lib|components)|shared)[\\/]|node_modules[\\/](react-router|@tanstack|zod)[\\/]/;

/** The app's accent (indigo-600): the title bar of the installed app, as index.html's theme-color and icon.svg. */
const THEME_COLOR = '#4f46e5';

/**
 * The installed app (DESIGN §21): a manifest, and a service worker that keeps every built file so
 * the app opens with no network. It keeps no API answer: the app's offline data lives in
 * IndexedDB, and an answer from a cache would show a sale or a stock figure that is no longer
 * true. The app registers the worker itself (app/service-worker.ts) and a new version waits until
 * the user reloads into it, never mid-sale.
 */
const installedApp = VitePWA({
  strategies: 'generateSW',
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    // PRODUCT_NAME (src/shared/product.ts), written out: Vite's coming config loader takes no
    // TypeScript import without its extension, which tsconfig does not allow.
    name: 'Inventory MS',
    short_name: 'Inventory MS',
    description: pkg.description,
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#f8fafc', // slate-50, the page's background (styles.css)
    theme_color: THEME_COLOR,
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // Every file the build writes: a screen opened offline for the first time still has its chunk.
    // The plugin lists manifest.webmanifest itself (and the manifest's icons, unless told not to
    // below): matched here as well, they were listed twice.
    globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
    // Far above the largest chunk (the reports' chart, about 0.4 MB): a file over the limit would
    // be left out of the shell without failing the build.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    navigateFallback: '/index.html',
    // Not the page where the server does not answer it (plugins/web-app.ts): the API and its
    // docs (/api/docs) go to the server, and so does a path naming a file (an extension).
    navigateFallbackDenylist: [/^\/api/, /^[^?]*\.[a-z0-9]+(\?.*)?$/i],
    cleanupOutdatedCaches: true,
    // The first visit's page is kept too, not only the next ones: a screen opened after the
    // network dropped still gets its code. A new version still waits for the user's Reload.
    clientsClaim: true,
  },
  includeManifestIcons: false,
  devOptions: { enabled: false },
});

// The web app lives in src/web and is built into dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  plugins: [react(), tailwindcss(), installedApp],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // A module runs when a screen that uses it starts, not when its chunk arrives: the app's
        // chunk holds every screen's contracts, and building all their schemas cost the first
        // screen ~100 ms.
        strictExecutionOrder: true,
        codeSplitting: {
          groups: [
            // What the first page (main.tsx, the login form) needs stays apart from the app's
            // chunk (decision 0014); the app's shared code is the next chunk; each screen its own.
            { name: 'index', tags: ['$initial'], priority: 2 },
            { name: 'app', test: APP_SHARED, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
