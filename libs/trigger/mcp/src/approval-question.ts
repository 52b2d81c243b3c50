import * as z from 'zod/v4';

/** Key of the approval question in an `input_required` round. */
export const APPROVAL_INPUT = 'approval';

/** The answer a client returns to the approval question. */
export const approvalAnswer = z.object({ approve: z.boolean() });

/** The form asked for approval (a fresh object: the SDK's types want it mutable). */
export function approvalForm(): { type: 'object'; properties: { approve: { type: 'boolean'; title: string } }; required: string[] } {
  return { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve' } }, required: ['approve'] };
}
