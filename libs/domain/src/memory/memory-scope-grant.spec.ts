import { MobileClawError } from '../errors';
import { memoryScopeGranted, parseMemoryScopePattern } from './memory-scope-grant';

describe('parseMemoryScopePattern', () => {
  it.each(['device:sim-1', 'context:order-42', 'context:crm-*', 'device:*', 'context:*', 'context:客户-*'])('accepts %s as written', (entry) => {
    expect(parseMemoryScopePattern(entry)).toBe(entry);
  });

  it.each([
    ['*', 'a bare wildcard'],
    ['context', 'no kind separator'],
    ['user:alice', 'an unknown kind'],
    ['contextcrm-*', 'a prefix without its kind'],
    ['context:crm-*-*', 'a second wildcard'],
    ['context:a*b', 'a wildcard inside the id'],
    ['device:\u0007*', 'a control character'],
    [`context:${'x'.repeat(257)}`, 'an id over 256 characters'],
    [`context:${'x'.repeat(257)}*`, 'a prefix over 256 characters'],
    ['device: sim-1', 'spaces around the id'],
  ])('refuses %j (%s) with VALIDATION_FAILED', (entry) => {
    expect(() => parseMemoryScopePattern(entry)).toThrow(MobileClawError);
    try {
      parseMemoryScopePattern(entry);
    } catch (err) {
      expect((err as MobileClawError).code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('memoryScopeGranted', () => {
  const grant = ['device:sim-1', 'context:crm-*'];

  it('reaches a scope named exactly, and every scope under a prefix', () => {
    expect(memoryScopeGranted(grant, 'device:sim-1')).toBe(true);
    expect(memoryScopeGranted(grant, 'context:crm-')).toBe(true);
    expect(memoryScopeGranted(grant, 'context:crm-42')).toBe(true);
  });

  it('does not reach a longer id of an exact entry, another kind with the same id, or a scope beside the prefix', () => {
    expect(memoryScopeGranted(grant, 'device:sim-10')).toBe(false);
    expect(memoryScopeGranted(grant, 'context:sim-1')).toBe(false);
    expect(memoryScopeGranted(grant, 'device:crm-42')).toBe(false);
    expect(memoryScopeGranted(grant, 'context:crm')).toBe(false);
    expect(memoryScopeGranted(grant, 'context:CRM-42')).toBe(false);
  });

  it('reaches nothing with an empty grant', () => {
    expect(memoryScopeGranted([], 'device:sim-1')).toBe(false);
  });

  it('reaches every scope of a kind with <kind>:*', () => {
    expect(memoryScopeGranted(['device:*'], 'device:anything')).toBe(true);
    expect(memoryScopeGranted(['device:*'], 'context:anything')).toBe(false);
  });
});
