import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The app's shared code (its frame, lib, components, the contracts) and the libraries under it:
 * one chunk, fetched with the app, rather than dozens of small ones shared by different sets of
 * screens, which a page asked for six at a time (HTTP/1.1) before it could render.
 */
const APP_SHARED =
  /src[\\/](web[\\/](app|lib|components)|shared)[\\/]|node_modules[\\/](react-router|@tanstack|zod)[\\/]/;

// The web app lives in src/web and is built into dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  plugins: [react(), tailwindcss()],
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
