// The database's tables by area; drizzle-kit reads this file (drizzle.config.ts), and the app
// passes every export to drizzle, so only tables and sequences are exported here.

export * from './accounting';
export * from './audit';
export * from './bills';
export * from './catalogue';
export * from './customers';
export * from './imports';
export * from './locations';
export * from './purchasing';
export * from './refunds';
export * from './reports';
export * from './sales';
export * from './stock';
export * from './stocktakes';
export * from './store';
export * from './store-credit';
export * from './till';
export * from './users';
