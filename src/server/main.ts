import { PRODUCT_NAME } from '../shared/product';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/connection';
import { ensureFirstAdmin } from './db/first-run';
import { chooseLogFormat, readableLogStream } from './lib/log';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase(config);
  // Readable lines at a terminal, JSON when piped or in production.
  const readable = chooseLogFormat(process.stdout, config.production === true) === 'readable';
  const app = await buildApp({
    config,
    database,
    logger: readable ? { stream: readableLogStream(process.stdout) } : true,
  });

  const first = await ensureFirstAdmin(database.db, config.adminEmail, config.adminPassword);
  if (first) {
    console.log('\nCreated the first account (superAdmin):');
    console.log(`  email:    ${first.email}`);
    console.log(`  password: ${first.generatedPassword ?? '(the ADMIN_PASSWORD you set)'}`);
    if (first.generatedPassword) console.log('  This password is shown only once: sign in and change it.\n');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing requests in flight, then closing the database`);
    // app.close() takes in what clients have already sent, stops listening, closes idle
    // connections, answers every request it has read, then closes the database (app.ts,
    // DESIGN §7). A request still unfinished 10 s after the signal has its connection cut.
    setTimeout(() => {
      app.log.warn('requests still unfinished after 10 s: closing their connections');
      app.server.closeAllConnections();
    }, 10_000).unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'postgres' ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`;
  console.log(
    `${PRODUCT_NAME} is running at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} on ${where}.`,
  );
}

main().catch((error) => {
  console.error(`${PRODUCT_NAME} could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
