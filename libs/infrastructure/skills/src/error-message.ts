/**
 * The message of anything thrown. Node's file-system errors are checked by shape, not `instanceof
 * Error`: under Jest (and across vm contexts) they come from another realm's `Error`.
 */
export function errorMessage(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') return err.message;
  return String(err);
}
