import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/common';
import { REFUSALS, refusalSentence } from '../../shared/refusals';
import { databaseFunctions } from '../db/connection';
import { AppError, appErrorBody, businessError, LEDGER_ERRORS } from './errors';

/**
 * The ledgers' triggers word some refusals themselves (decision 0041): their text is held here to
 * the one sentence of src/shared/refusals.ts, so a change to either shows.
 */

/** Each `RAISE EXCEPTION '<text>'[, args] USING ERRCODE = '<code>'[, DETAIL = …]` of a function file. */
function raisesOf(file: string): { code: string; text: string; detail: string | undefined }[] {
  const text = databaseFunctions().find((candidate) => candidate.name === file)?.text ?? '';
  const raises = text.matchAll(
    /RAISE EXCEPTION '([^']*)'[^;]*?USING ERRCODE = '(IMS\d\d)'(?:,\s*DETAIL = ([^;]*))?;/g,
  );
  return [...raises].map(([, message, code, detail]) => ({
    code: code as string,
    text: message as string,
    detail: detail?.trim(),
  }));
}

/** The refusal a statement failing with `code`, `message` and `detail` answers. */
function ledgerRefusal(code: string, message: string, detail = ''): AppError {
  const error = businessError(Object.assign(new Error(message), { code, detail }));
  if (!error) throw new Error(`${code} is no ledger refusal`);
  return error;
}

/** `text` with each % of a RAISE filled by the next of `values`, as PL/pgSQL does. */
function filled(text: string, ...values: string[]): string {
  let next = 0;
  return text.replace(/%/g, () => values[next++] ?? '');
}

describe('the ledgers’ refusals', () => {
  const stock = raisesOf('stock_movements_apply');
  const credit = raisesOf('store_credit_apply');
  const raised = (code: string, from = stock) => from.filter((raise) => raise.code === code);

  it('reads every RAISE of the two ledgers’ triggers', () => {
    expect(new Set(stock.map((raise) => raise.code))).toEqual(
      new Set(['IMS01', 'IMS02', 'IMS05', 'IMS06', 'IMS07', 'IMS08', 'IMS10']),
    );
    expect(new Set(credit.map((raise) => raise.code))).toEqual(new Set(['IMS03', 'IMS04']));
  });

  it('each refusal code of the ledgers is raised by one function only; a guard of the ledger is IMS09, a 500', () => {
    const raisers = new Map<string, Set<string>>();
    for (const { name } of databaseFunctions())
      for (const raise of raisesOf(name))
        raisers.set(raise.code, (raisers.get(raise.code) ?? new Set()).add(name));
    for (const code of Object.keys(LEDGER_ERRORS))
      expect(raisers.get(code)?.size ?? 0, code).toBeLessThanOrEqual(1);
    expect(raisers.get('IMS09')).toEqual(
      new Set([
        'location_stock_from_ledger',
        'lot_stock_from_ledger',
        'lots_quantity_from_ledger',
        'products_stock_from_ledger',
      ]),
    );
    expect(
      businessError(
        Object.assign(new Error('Stock changes only through stock movements'), { code: 'IMS09' }),
      ),
    ).toBeUndefined();
    // IMS10, a revaluation where there is no stock, is a writer's fault too: a 500.
    expect(raisers.get('IMS10')).toEqual(new Set(['stock_movements_apply']));
    expect(businessError(Object.assign(new Error('Nothing to revalue'), { code: 'IMS10' }))).toBeUndefined();
  });

  it('IMS01 says NOT_ENOUGH_STOCK’s sentence without a product', () => {
    for (const raise of raised('IMS01')) {
      expect(raise.text).toBe(refusalSentence('NOT_ENOUGH_STOCK'));
      expect(appErrorBody(ledgerRefusal('IMS01', raise.text))).toEqual({
        success: false,
        error: 'Not enough stock',
        code: 'NOT_ENOUGH_STOCK',
      });
    }
  });

  it('IMS03 is CREDIT_SHORT’s sentence without a customer', () => {
    const [raise] = raised('IMS03', credit);
    expect(`${raise?.text}.`).toBe(refusalSentence('CREDIT_SHORT'));
    expect(appErrorBody(ledgerRefusal('IMS03', raise?.text ?? ''))).toEqual({
      success: false,
      error: 'Not enough store credit.',
      code: 'CREDIT_SHORT',
    });
  });

  it('IMS05’s DETAIL carries the facts of UNEXPIRED_SHORT, and the answer is its sentence', () => {
    const [raise] = raised('IMS05');
    expect(raise?.detail).toBe("json_build_object('unexpired', unexpired, 'product', named)::text");
    const facts = { unexpired: 3, product: 'Insulin pen' };
    const error = ledgerRefusal('IMS05', raise?.text ?? '', JSON.stringify(facts));
    expect(appErrorBody(error)).toEqual({
      success: false,
      error: 'Only 3 of Insulin pen unexpired in stock.',
      code: 'UNEXPIRED_SHORT',
    });
    expect(error.message).toBe(refusalSentence('UNEXPIRED_SHORT', facts));
    // A DETAIL that is not those facts still answers a code.
    expect(appErrorBody(ledgerRefusal('IMS05', raise?.text ?? '', 'not json')).code).toBe('NOT_ENOUGH_STOCK');
  });

  it('IMS06 names the lot as LOT_NEEDED does (a 400), IMS07 is LOT_SHORT’s sentence for its lot', () => {
    const needed = raised('IMS06').find((raise) => !raise.text.includes('%'));
    expect(`${needed?.text}.`).toBe(refusalSentence('LOT_NEEDED'));
    const error = ledgerRefusal('IMS06', needed?.text ?? '');
    expect([error.status, error.code, error.message]).toEqual([
      400,
      'LOT_NEEDED',
      refusalSentence('LOT_NEEDED'),
    ]);

    const [short] = raised('IMS07');
    const message = filled(short?.text ?? '', 'B-7');
    const refused = ledgerRefusal('IMS07', message);
    expect([refused.status, refused.code, refused.message]).toEqual([
      REFUSALS.LOT_SHORT.status,
      'LOT_SHORT',
      refusalSentence('LOT_SHORT', { lot: 'B-7' }),
    ]);
  });

  it('every ledger refusal answers a known code, a missing record NOT_FOUND', () => {
    for (const code of Object.keys(LEDGER_ERRORS)) {
      const error = ledgerRefusal(code, 'Whatever the trigger says', '{}');
      expect(ERROR_CODES, code).toContain(error.code);
      if (error.status === 404) expect(error.code, code).toBe('NOT_FOUND');
    }
  });
});

describe('refusal codes', () => {
  it('a refusal without a named code has its status’s', () => {
    expect(new AppError(404, 'Product not found.').code).toBe('NOT_FOUND');
    expect(new AppError(409, 'It moved.').code).toBe('CONFLICT');
    expect(new AppError(418, 'Odd.').code).toBe('BAD_REQUEST');
    expect(new AppError(502, 'Odd.').code).toBe('INTERNAL');
  });

  it('every named refusal is a failure status, and its code is one of ERROR_CODES', () => {
    for (const [code, refusal] of Object.entries(REFUSALS)) {
      expect(refusal.status, code).toBeGreaterThanOrEqual(400);
      expect(ERROR_CODES, code).toContain(code);
    }
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
});
