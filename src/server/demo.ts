import { rmSync } from 'node:fs';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/connection';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_STORE_NAME, seedDemo } from './db/seed';

/** Makes a fresh demo database in DATA_DIR (the embedded database only) and prints its accounts. */
async function main(): Promise<void> {
  const config = loadConfig();
  rmSync(config.dataDir, { recursive: true, force: true });
  const database = await openDatabase({ dataDir: config.dataDir });
  try {
    // A believable shop on its receipts unless STORE_NAME names the store.
    await seedDemo(database, new Date(), process.env.STORE_NAME?.trim() ? config.storeName : DEMO_STORE_NAME);
  } finally {
    await database.close();
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
