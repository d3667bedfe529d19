/**
 * Loads the benchmark's data set into a PostgreSQL database of its own and keeps it, to measure
 * one statement or screen at full scale without the whole run:
 *
 *   npx tsx bench/keep.ts ims_scale            100k products, 1M orders (about two minutes)
 *   npx tsx bench/keep.ts ims_scale --quick    a tenth
 *   npx tsx bench/keep.ts ims_big --quick --products=206000   a tenth of the orders, that many products
 *
 * The database is made anew on the server of DATABASE_URL (default: the local one); sign in as
 * user2@bench.example (admin) or any bench user with the bench's password.
 */
import pg from 'pg';
import { openDatabase } from '../src/server/db/connection';
import { setReportTimeZone } from '../src/server/db/report-time-zone';
import { DATA_SET, loadData } from './load-data';

const [name, ...flags] = process.argv.slice(2);
if (!name || !/^[a-z_][a-z0-9_]*$/.test(name))
  throw new Error('usage: tsx bench/keep.ts <database name> [--quick]');
const quick = flags.includes('--quick');
const base = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', statementTimeoutMs: 0 });
await setReportTimeZone(database, Intl.DateTimeFormat().resolvedOptions().timeZone);
const products = Number(flags.find((flag) => flag.startsWith('--products='))?.slice('--products='.length));
const size = {
  ...(quick
    ? { products: 10_000, orders: 100_000 }
    : { products: DATA_SET.products, orders: DATA_SET.orders }),
  ...(Number.isInteger(products) && products > 0 ? { products } : {}),
};
const started = performance.now();
await loadData(database, size);
await database.close();
console.log(`${url} loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
