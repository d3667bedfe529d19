import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/connection';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty PostgreSQL database that test databases are copied from (TEST_DATABASE_URL). */
    postgresTemplate: string | undefined;
  }
}

async function onServer(baseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Once per run: migrates one PostgreSQL database on the server of TEST_DATABASE_URL, which every
 * test database is then created from (`create database … template …`, 40–80 ms instead of
 * migrating each anew), and drops it at the end. Test databases still migrate when they open, so
 * a template that lags the migrations cannot hide one.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  project.provide('postgresTemplate', undefined);
  if (!baseUrl) return undefined;
  const name = `ims_template_${randomBytes(6).toString('hex')}`;
  await onServer(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  await database.close();
  project.provide('postgresTemplate', name);
  return () => onServer(baseUrl, `drop database if exists ${name} with (force)`);
}
