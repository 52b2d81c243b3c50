import type { PlanDecision, UiElement } from '@mobileclaw/domain';
import { approvalFor } from './approval-policy';

const element = (index: number, over: Partial<UiElement>): UiElement => ({
  index,
  nodeId: `n${index}`,
  type: 'ImageButton',
  bounds: [0, index * 100, 100, index * 100 + 100],
  center: [50, index * 100 + 50],
  clickable: true,
  ...over,
});

const tapOn = (elementIndex: number | undefined, x = 50, y = 50): PlanDecision => ({
  type: 'action',
  action: { command: 'click', x, y },
  reasoning: 'test',
  ...(elementIndex === undefined ? {} : { elementIndex }),
});

describe('approvalFor', () => {
  it('asks for a tap on an element whose own text names a sensitive action', () => {
    expect(approvalFor(tapOn(0), [element(0, { text: 'Delete account' })])).toEqual({ reason: '"Delete account" looks like a sensitive action (payment, deletion or similar)' });
  });

  it('asks for a tap on an icon-only button whose borrowed label names one (its card calls it "Delete account")', () => {
    const icon = element(0, { label: 'Delete account', labelSource: 'card' });
    expect(approvalFor(tapOn(0), [icon])).toEqual({ reason: '"Delete account" looks like a sensitive action (payment, deletion or similar)' });
  });

  it('finds the borrowed label under a tap given by point only', () => {
    const icon = element(1, { label: 'Pay now', labelSource: 'row' });
    expect(approvalFor(tapOn(undefined, 50, 150), [element(0, { text: 'Home' }), icon])?.reason).toBe('"Pay now" looks like a sensitive action (payment, deletion or similar)');
  });

  it('lets a harmless element through, whatever its label', () => {
    expect(approvalFor(tapOn(0), [element(0, { text: 'Wi-Fi', label: 'Wi-Fi', labelSource: 'text' })])).toBeUndefined();
    expect(approvalFor(tapOn(0), [element(0, { label: 'Show password', labelSource: 'desc' })])).toBeUndefined();
  });

  it('keeps the planner\'s own approval request', () => {
    const decision: PlanDecision = { ...tapOn(0), approval: { reason: 'sends a message' } } as PlanDecision;
    expect(approvalFor(decision, [element(0, { text: 'Delete' })])).toEqual({ reason: 'sends a message' });
  });
});
