/** The gateway's bound on a rejection reason, in characters (code points, as it counts them). */
export const MAX_TOOL_REJECTION_LENGTH = 2000;

/**
 * `reason` as the gateway takes it: at most {@link MAX_TOOL_REJECTION_LENGTH} code points, a longer
 * one cut and ended with `…` (so a long tool error or gateway message never makes the answer itself
 * refused); an empty one becomes `no reason given` (the gateway needs 1 character at least).
 */
export function boundedReason(reason: string): string {
  if (reason.length === 0) return 'no reason given';
  if (reason.length <= MAX_TOOL_REJECTION_LENGTH) return reason;
  const codePoints = Array.from(reason);
  if (codePoints.length <= MAX_TOOL_REJECTION_LENGTH) return reason;
  return `${codePoints.slice(0, MAX_TOOL_REJECTION_LENGTH - 1).join('')}…`;
}
