/**
 * The product's one name: page titles, the login heading, the sidebar, printed headers, the API's
 * title and the server's own lines. The store's name (STORE_NAME, on receipts) starts as this.
 */
export const PRODUCT_NAME = 'Inventory MS';

/** The sidebar's short form on small screens. */
export const PRODUCT_SHORT_NAME = 'IMS';
