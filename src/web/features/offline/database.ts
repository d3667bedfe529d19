import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Product } from '../../../shared/products';
import type { OfflineInput, Sale, SaleInput } from '../../../shared/sales';
import type { StoreSettings } from '../../../shared/store';
import type { RegisterSession } from '../../../shared/till';

/**
 * The browser's own database of the counter's offline sales (DESIGN §21): the sales waiting to be
 * sent, the server's answers to those sent, the device's own numbers, and what each seller's
 * counter keeps to sell from (its kit). One connection a tab, opened on first use.
 */
export const DATABASE_NAME = 'inventory-ms-offline';
/** 1: sales, answered, device; 2: kits. */
const VERSION = 2;

/** What POST /api/sales is sent for a sale made offline: the whole body, `offline` included. */
export type OfflineSaleBody = SaleInput & { offline: OfflineInput };

/** Why the server refused a sale: kept on the device for an admin to see, never sent again. */
export type Refusal = { status: number; code?: string; message: string; at: string };

/** A sale kept on the device: waiting to be sent, or refused by the server. */
export type QueuedSale = {
  /** The sale's offline id (body.offline.id). */
  id: string;
  sellerId: string;
  body: OfflineSaleBody;
  /** When it was made, as the device's clock said (ISO 8601). */
  madeAt: string;
  /** Its place in the order sales were made on this device: drawn when kept, never by the clock. */
  order: number;
  state: 'waiting' | 'refused';
  refusal?: Refusal;
};

/** A sale the server recorded, with its answer (201 or 200): no longer in the queue. */
export type AnsweredSale = {
  id: string;
  sellerId: string;
  deviceNumber: string;
  madeAt: string;
  order: number;
  answeredAt: string;
  answer: Sale;
};

/**
 * What a seller's counter keeps to sell offline (DESIGN §21), read while online: its open session
 * (register and location), the store's settings, and the location's active products with price,
 * tax rate in force, codes and stock there, as the server answered them at `keptAt`.
 */
export type CounterKit = {
  sellerId: string;
  keptAt: string;
  session: RegisterSession;
  store: StoreSettings;
  products: Product[];
};

export interface OfflineSchema extends DBSchema {
  sales: {
    key: string;
    value: QueuedSale;
    indexes: { 'by-seller': [string, QueuedSale['state'], number]; 'by-order': number };
  };
  answered: { key: string; value: AnsweredSale; indexes: { 'by-seller': [string, number] } };
  /** The device's counters and code: `order` (the last sale's place), `counter` and `code`. */
  device: { key: string; value: number | string };
  kits: { key: string; value: CounterKit };
}

export type OfflineDatabase = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDatabase> | null = null;

/** This tab's connection to the offline database, opened (and made) on first use. */
export function offlineDatabase(): Promise<OfflineDatabase> {
  if (opening) return opening;
  const connection = openDB<OfflineSchema>(DATABASE_NAME, VERSION, {
    // Each version adds to what the one before made: a device's waiting sales survive an update.
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        const sales = database.createObjectStore('sales', { keyPath: 'id' });
        sales.createIndex('by-seller', ['sellerId', 'state', 'order']);
        sales.createIndex('by-order', 'order');
        const answered = database.createObjectStore('answered', { keyPath: 'id' });
        answered.createIndex('by-seller', ['sellerId', 'order']);
        database.createObjectStore('device');
      }
      if (oldVersion < 2) database.createObjectStore('kits', { keyPath: 'sellerId' });
    },
    // A newer version opening in another tab (an update of the app): let it, and reopen on next use.
    blocking() {
      void closeOfflineDatabase();
    },
    terminated() {
      if (opening === connection) opening = null;
    },
  });
  opening = connection;
  connection.catch(() => {
    if (opening === connection) opening = null;
  });
  return connection;
}

/** Closes this tab's connection (the next call opens it again): what a reload does. */
export async function closeOfflineDatabase(): Promise<void> {
  const connection = opening;
  opening = null;
  if (!connection) return;
  const database = await connection.catch(() => null);
  database?.close();
}
