import { describe, expect, it, vi } from 'vitest';
import { customer, product } from '../../test/fixtures';
import { addToCart } from './cart-rules';
import {
  type CounterDraft,
  EMPTY_DRAFT,
  isEmptyDraft,
  MAX_PARKED,
  type ParkedSale,
  readDraft,
  readParked,
  writeDraft,
  writeParked,
} from './counter-drafts';

const crisps = product('p1', 'Crisps', { price: 0.1, stock: 5 });
const carla = customer('cu1', 'Carla Customer');
const draft: CounterDraft = {
  lines: addToCart([], crisps),
  discount: null,
  customer: carla,
  method: 'cash',
  tendered: '5',
  split: true,
  payments: [
    { method: 'card', amount: 0.05 },
    { method: 'storeCredit', amount: 0.02 },
  ],
  unanswered: { body: '{"lines":[]}', key: 'k1' },
};
const parkedSale = (id: string): ParkedSale => ({ id, parkedAt: '2025-05-01T10:00:00.000Z', draft });

describe('the counter keeps its sale in the browser', () => {
  it('reads back what it wrote, for that user only', () => {
    writeDraft('u1', draft);
    expect(readDraft('u1')).toEqual(draft);
    expect(readDraft('u2')).toEqual(EMPTY_DRAFT);
    expect(Object.keys(localStorage)).toEqual(['ims_counter_cart:u1']);
  });

  it('removes the stored sale once there is nothing to keep', () => {
    writeDraft('u1', draft);
    writeDraft('u1', EMPTY_DRAFT);
    expect(localStorage.getItem('ims_counter_cart:u1')).toBeNull();
    expect(isEmptyDraft(EMPTY_DRAFT)).toBe(true);
    expect(isEmptyDraft({ ...EMPTY_DRAFT, method: 'card' })).toBe(true);
    expect(isEmptyDraft({ ...EMPTY_DRAFT, tendered: '5' })).toBe(false);
    expect(isEmptyDraft({ ...EMPTY_DRAFT, customer: carla })).toBe(false);
  });

  it('ignores a stored value that is not JSON, of another version or of another shape, and does not throw', () => {
    const stored = (value: string) => {
      localStorage.setItem('ims_counter_cart:u1', value);
      return readDraft('u1');
    };
    expect(stored('{not json')).toEqual(EMPTY_DRAFT);
    expect(stored('null')).toEqual(EMPTY_DRAFT);
    expect(stored('[]')).toEqual(EMPTY_DRAFT);
    expect(stored(JSON.stringify({ version: 0, draft }))).toEqual(EMPTY_DRAFT);
    // An older format: the cart as a bare list of ids and quantities.
    expect(stored(JSON.stringify([{ id: 'p1', quantity: 2 }]))).toEqual(EMPTY_DRAFT);
    expect(stored(JSON.stringify({ version: 1, draft: { ...draft, method: 'bitcoin' } }))).toEqual(
      EMPTY_DRAFT,
    );
    expect(
      stored(
        JSON.stringify({
          version: 1,
          draft: { ...draft, lines: [{ product: { _id: 'p1' }, quantity: '1' }] },
        }),
      ),
    ).toEqual(EMPTY_DRAFT);
    // The same product on two lines is a value this code never writes.
    expect(
      stored(JSON.stringify({ version: 1, draft: { ...draft, lines: [...draft.lines, ...draft.lines] } })),
    ).toEqual(EMPTY_DRAFT);
    expect(stored(JSON.stringify({ version: 1, draft }))).toEqual(draft);
  });

  it('keeps the discounts of the lines and of the sale, and still loads a sale kept before discounts', () => {
    const discounted: CounterDraft = {
      ...draft,
      lines: [{ product: crisps, quantity: '3', discount: { type: 'percent', value: 12.5 } }],
      discount: { type: 'amount', value: 0.05 },
    };
    writeDraft('u1', discounted);
    expect(readDraft('u1')).toEqual(discounted);
    // Written before discounts existed: no discount field on the sale or its lines.
    const { discount: _none, ...older } = draft;
    localStorage.setItem('ims_counter_cart:u1', JSON.stringify({ version: 1, draft: older }));
    expect(readDraft('u1')).toEqual({ ...draft, discount: null });
    // A discount that is not one (a percent above 100, an unknown type) is not misread.
    for (const bad of [{ type: 'percent', value: 150 }, { type: 'free', value: 1 }, 'ten']) {
      localStorage.setItem(
        'ims_counter_cart:u1',
        JSON.stringify({ version: 1, draft: { ...draft, discount: bad } }),
      );
      expect(readDraft('u1')).toEqual(EMPTY_DRAFT);
    }
  });

  it('keeps the split payments, still loads a sale kept before them, and ignores payments that are not ones', () => {
    writeDraft('u1', draft);
    expect(readDraft('u1').payments).toEqual(draft.payments);
    expect(readDraft('u1').split).toBe(true);
    expect(isEmptyDraft({ ...EMPTY_DRAFT, payments: [{ method: 'card', amount: 1 }] })).toBe(false);
    // Written before split payments existed: paid in one payment.
    const { split: _split, payments: _payments, ...older } = draft;
    localStorage.setItem('ims_counter_cart:u1', JSON.stringify({ version: 1, draft: older }));
    expect(readDraft('u1')).toEqual({ ...draft, split: false, payments: [] });
    const eleven = Array.from({ length: 11 }, () => ({ method: 'cash', amount: 1 }));
    for (const bad of [
      [{ method: 'bitcoin', amount: 1 }],
      [{ method: 'cash', amount: 1.234 }],
      [{ method: 'card', amount: -1 }],
      [{ method: 'card', amount: '5' }],
      eleven,
      'cash',
    ]) {
      localStorage.setItem(
        'ims_counter_cart:u1',
        JSON.stringify({ version: 1, draft: { ...draft, payments: bad } }),
      );
      expect(readDraft('u1')).toEqual(EMPTY_DRAFT);
    }
  });

  it('keeps the parked sales per user, newest first, leaving out only a damaged entry', () => {
    writeParked('u1', [parkedSale('b'), parkedSale('a')]);
    expect(readParked('u1').map((one) => one.id)).toEqual(['b', 'a']);
    expect(readParked('u2')).toEqual([]);
    localStorage.setItem(
      'ims_counter_parked:u1',
      JSON.stringify({
        version: 1,
        parked: [parkedSale('b'), { id: 'x', parkedAt: 'yesterday', draft }, 'junk', parkedSale('a')],
      }),
    );
    expect(readParked('u1').map((one) => one.id)).toEqual(['b', 'a']);
    localStorage.setItem('ims_counter_parked:u1', '{"version":1,"parked":{}}');
    expect(readParked('u1')).toEqual([]);
    localStorage.setItem('ims_counter_parked:u1', 'garbage');
    expect(readParked('u1')).toEqual([]);
    writeParked('u1', []);
    expect(localStorage.getItem('ims_counter_parked:u1')).toBeNull();
    const many = Array.from({ length: MAX_PARKED + 3 }, (_, at) => parkedSale(`s${at}`));
    localStorage.setItem('ims_counter_parked:u1', JSON.stringify({ version: 1, parked: many }));
    expect(readParked('u1')).toHaveLength(MAX_PARKED);
  });

  it('loses only the copy, not the sale on screen, when the browser refuses to store', () => {
    const full = vi.spyOn(localStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    try {
      expect(() => writeDraft('u1', draft)).not.toThrow();
      expect(() => writeParked('u1', [parkedSale('a')])).not.toThrow();
      expect(full).toHaveBeenCalledTimes(2);
    } finally {
      full.mockRestore();
    }
    expect(readDraft('u1')).toEqual(EMPTY_DRAFT);
  });
});
