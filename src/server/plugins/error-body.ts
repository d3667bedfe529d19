import type { ApiError } from '../../shared/common';
import { codeOfStatus, type ErrorCode } from '../../shared/refusals';

/**
 * The failure envelope (DESIGN §3) of an answer no AppError carries: its sentence and its code (by
 * its status unless named), and details when given.
 */
export function errorBody(
  status: number,
  error: string,
  details?: ApiError['details'],
  code: ErrorCode = details ? 'VALIDATION' : codeOfStatus(status),
): ApiError {
  return details ? { success: false, error, code, details } : { success: false, error, code };
}
