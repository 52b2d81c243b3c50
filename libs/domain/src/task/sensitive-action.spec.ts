import { sensitiveElementLabel, sensitiveLabel } from './sensitive-action';

describe('sensitive actions', () => {
  it('finds the first label that deletes data or spends money, in English and Chinese, as whole words', () => {
    expect(sensitiveLabel([undefined, 'Open', 'Delete account', 'Pay now'])).toBe('Delete account');
    expect(sensitiveLabel(['立即支付'])).toBe('立即支付');
    expect(sensitiveLabel(['Payday calendar', 'Buyer guide', 'Open'])).toBeUndefined();
  });

  it('reads an element’s own text and description, then its label from around it (row, card, resource id)', () => {
    expect(sensitiveElementLabel({ text: 'Remove', desc: 'Trash' })).toBe('Remove');
    expect(sensitiveElementLabel({ desc: 'Delete' })).toBe('Delete');
    // An icon-only button named only by its row, or only by its resource id.
    expect(sensitiveElementLabel({ label: 'Delete message' })).toBe('Delete message');
    expect(sensitiveElementLabel({ label: 'btn delete' })).toBe('btn delete');
    expect(sensitiveElementLabel({ text: 'Open', label: 'Open' })).toBeUndefined();
    expect(sensitiveElementLabel({})).toBeUndefined();
  });
});
