import { SKILL_NAME_MAX_LENGTH, skillNameError } from './learned-skill';

describe('skillNameError', () => {
  it('accepts lowercase letters, digits and single inner hyphens up to the limit', () => {
    for (const name of ['wifi-on', 'a', 'book-table-2', 'x'.repeat(SKILL_NAME_MAX_LENGTH), 'console', 'com10']) expect(skillNameError(name)).toBeUndefined();
  });

  it('refuses the empty, the too long, other characters, edge and double hyphens', () => {
    expect(skillNameError('')).toBe(`a skill name has 1 to ${SKILL_NAME_MAX_LENGTH} characters (got 0)`);
    expect(skillNameError('x'.repeat(SKILL_NAME_MAX_LENGTH + 1))).toBe(`a skill name has 1 to ${SKILL_NAME_MAX_LENGTH} characters (got ${SKILL_NAME_MAX_LENGTH + 1})`);
    for (const name of ['Wifi', '../x', 'a_b', '-a', 'a-', 'a--b', 'a b']) expect(skillNameError(name)).toMatch(/^a skill name is lowercase letters/);
  });

  it('refuses the names Windows reserves for devices, whose folders cannot exist there', () => {
    for (const name of ['con', 'prn', 'aux', 'nul', 'com1', 'lpt9']) {
      expect(skillNameError(name)).toBe(`a skill name may not be ${name}: Windows reserves it for a device, so its folder could not be created there`);
    }
  });
});
