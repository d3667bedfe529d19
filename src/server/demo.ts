import { rmSync } from 'node:fs';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/connection';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_STORE_NAME, seedDemo } from './db/seed';
import { seedOfflineSales } from './db/seed-offline';

/** Makes a fresh demo database in DATA_DIR (the embedded database only) and prints its accounts. */
async function main(): Promise<void> {
  const config = loadConfig();
  rmSync(config.dataDir, { recursive: true, force: true });
  const database = await openDatabase({ dataDir: config.dataDir });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    // A believable shop on its receipts unless STORE_NAME names the store.
    await seedDemo(database, new Date(), process.env.STORE_NAME?.trim() ? config.storeName : DEMO_STORE_NAME);
    // The sales a counter made offline, sent to the app as a counter sends them (DESIGN §21).
    app = await buildApp({ config, database });
    const account = (role: string) => {
      const found = DEMO_ACCOUNTS.find((one) => one.role === role);
      return { email: found?.email ?? '', password: DEMO_PASSWORD };
    };
    await seedOfflineSales(app, account('salesRep'), account('admin'));
  } finally {
    // Closing the app closes its database.
    if (app) await app.close();
    else await database.close();
  }
  console.log(`\nDemo database ready in ${config.dataDir}. Accounts (password for all: ${DEMO_PASSWORD}):`);
  for (const account of DEMO_ACCOUNTS) console.log(`  ${account.role.padEnd(11)} ${account.email}`);
  console.log('');
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError ? error.message : `Could not make the demo database: ${String(error)}`,
  );
  process.exit(1);
});
