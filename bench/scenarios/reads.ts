import { BENCH_PASSWORD, DATA_SET } from '../load-data';
import {
  BARE_STEADY,
  DASHBOARD_ALONE_FLAT,
  DASHBOARD_ALONE_STEADY,
  SEARCH_ALONE_FLAT,
  SECONDS,
  STEADY_RATE,
} from '../settings';
import type { Scenario } from './bench';

/** The bare route, sign-in, the dashboard, the catalogue and the order lists. */
export const READS: Scenario[] = [
  {
    name: 'bare route (GET /api/live)',
    target: null,
    limit: null,
    run: async (b, s) => {
      await b.run({ name: s.name, url: `${b.server.url}/api/live`, connections: 64, duration: SECONDS });
    },
  },
  {
    name: BARE_STEADY,
    target: null,
    limit: null,
    run: async (b, s) => {
      await b.runSteady({
        name: s.name,
        url: `${b.server.url}/api/live`,
        connections: 16,
        duration: SECONDS,
        rate: STEADY_RATE,
      });
    },
  },
  {
    name: 'login',
    target: null,
    limit: null,
    run: async (b, s) => {
      await b.run({
        name: s.name,
        url: `${b.server.url}/api/auth/login`,
        method: 'POST',
        // Staff signing in, each as the next of the 190 staff users: one person rarely has two
        // sign-ins in flight, as at a real shop (one user's burst past 5 is the throttle's to refuse).
        makeBody: (() => {
          let next = 0;
          return () =>
            JSON.stringify({
              email: `user${11 + (next++ % (DATA_SET.users - 10))}@bench.example`,
              password: BENCH_PASSWORD,
            });
        })(),
        connections: 16,
        duration: SECONDS,
      });
    },
  },
  {
    name: 'dashboard',
    target: null,
    limit: DASHBOARD_ALONE_FLAT,
    run: async (b, s) => {
      await b.run({
        name: s.name,
        url: `${b.server.url}/api/dashboard`,
        headers: b.asAdmin,
        connections: 16,
        duration: SECONDS,
      });
    },
  },
  // The whole catalogue and searches are expensive reads, of which one user runs two at once
  // (decision 0036): the staff ask them, each connection as the next of the ten signed in.
  {
    name: 'products, full list',
    target: null,
    limit: null,
    run: async (b, s) => {
      await b.run({
        name: s.name,
        url: `${b.server.url}/api/products`,
        headersFor: b.asStaff,
        connections: 4,
        duration: SECONDS,
      });
    },
  },
  {
    name: 'products, search page of 20',
    target: null,
    limit: SEARCH_ALONE_FLAT,
    run: async (b, s) => {
      await b.run({
        name: s.name,
        url: `${b.server.url}/api/products?search=vitamin%20gel&page=1&pageSize=20`,
        headersFor: b.asStaff,
        connections: 16,
        duration: SECONDS,
      });
    },
  },
  // The same two calls at a steady rate, well below what the server can take: the latency a
  // user sees in a busy store, beside the flat-out figures above, where 16 clients queue.
  {
    name: `dashboard, steady ${STEADY_RATE} req/s`,
    target: null,
    limit: DASHBOARD_ALONE_STEADY,
    run: async (b, s) => {
      await b.runSteady({
        name: s.name,
        url: `${b.server.url}/api/dashboard`,
        headers: b.asAdmin,
        connections: 16,
        duration: SECONDS,
        rate: STEADY_RATE,
      });
    },
  },
  {
    name: `products, search page of 20, steady ${STEADY_RATE} req/s`,
    target: null,
    limit: BARE_STEADY,
    run: async (b, s) => {
      await b.runSteady({
        name: s.name,
        url: `${b.server.url}/api/products?search=vitamin%20gel&page=1&pageSize=20`,
        headersFor: b.asStaff,
        connections: 16,
        duration: SECONDS,
        rate: STEADY_RATE,
      });
    },
  },
  {
    name: 'orders as admin, page of 50',
    target: null,
    limit: null,
    run: async (b, s) => {
      await b.run({
        name: s.name,
        url: `${b.server.url}/api/order/${b.admin.user._id}?page=1&pageSize=50`,
        headers: b.asAdmin,
        connections: 16,
        duration: SECONDS,
      });
    },
  },
  {
    name: 'orders as one rep, page of 50',
    target: null,
    limit: null,
    run: async (b, s) => {
      await b.run({
        name: s.name,
        url: `${b.server.url}/api/order/${b.rep.user._id}?page=1&pageSize=50`,
        headers: b.asRep,
        connections: 16,
        duration: SECONDS,
      });
    },
  },
];
