import { kB, loginWeight } from '../../scripts/login-weight.mjs';
import { catalogueInteractive } from '../browser';
import { log, TARGETS } from '../settings';
import type { Scenario } from './bench';

/** The first message of a failure, for the table's "not measured (...)". */
const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** The catalogue page until it is usable, in Chromium, cold and then warm. */
export const CATALOGUE_INTERACTIVE: Scenario = {
  name: 'catalogue interactive',
  target: `< ${TARGETS.catalogueMs} ms (warm)`,
  limit: null,
  run: async (b) => {
    try {
      b.measured.catalogue = await catalogueInteractive(b.server.url, {
        token: b.rep.token,
        user: b.rep.user,
      });
      log(
        `Catalogue interactive in Chromium: ${b.measured.catalogue.map((n) => n.toFixed(0)).join(', ')} ms`,
      );
    } catch (error) {
      // Every other figure is still worth writing down; the table says this one is missing.
      b.measured.catalogueError = firstLine(error);
      log(`Catalogue not measured: ${b.measured.catalogueError}`);
    }
  },
};

/** What the login page downloads, gzipped, in Chromium. */
export const LOGIN_WEIGHT: Scenario = {
  name: 'login page JavaScript (gzip)',
  target: null,
  limit: null,
  run: async (b) => {
    try {
      const loginJs = (await loginWeight(b.server.url)).gzip;
      b.measured.loginJs = loginJs;
      log(`Login page JavaScript in Chromium: ${kB(loginJs)} gzipped`);
    } catch (error) {
      b.measured.loginJsError = firstLine(error);
      log(`Login page JavaScript not measured: ${b.measured.loginJsError}`);
    }
  },
};
