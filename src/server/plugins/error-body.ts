import type { ApiError } from '../../shared/common';

/** The failure envelope (DESIGN §3) of an answer no AppError carries. */
export function errorBody(error: string, details?: ApiError['details']): ApiError {
  return details ? { success: false, error, details } : { success: false, error };
}
