import { MobileClawError } from '@mobileclaw/domain';
import { holderName } from './holder-name';

function refusal(raw: unknown): string {
  try {
    holderName(raw);
  } catch (err) {
    if (err instanceof MobileClawError && err.code === 'VALIDATION_FAILED' && err.fieldErrors?.[0]?.field === 'holder') return err.message;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
}

describe('holderName', () => {
  it('keeps a plain name, NFC-normalised and trimmed', () => {
    expect(holderName('Ada')).toBe('Ada');
    expect(holderName('  Zoë Brontë\t')).toBe('Zoë Brontë');
    expect(holderName('Zoe\u0308')).toBe('Zo\u00EB');
    expect(holderName('李雷 🚀')).toBe('李雷 🚀');
    expect(holderName('عائشة')).toBe('عائشة');
  });

  it.each([
    ['\u202EevilAda', '202E'],
    ['Ada\u2066x\u2069', '2066'],
    ['Ada\u200F', '200F'],
    ['Ada\u061C', '061C'],
    ['\u200B', '200B'],
    ['\u00AD', '00AD'],
    ['Ada\uD800', 'D800'],
    ['Ada\uFFFE', 'FFFE'],
    ['Ada\u0007', '0007'],
  ])('refuses %j, naming the code point', (raw, hex) => {
    expect(refusal(raw)).toBe(`holder must not contain control, format (e.g. bidi) or noncharacter code points (it has U+${hex}): give a name of 1–64 visible characters`);
  });

  it.each(['\u2800', '\u115F', ' \u3164 ', '\u0301', '   '])('refuses %j, which shows nothing', (raw) => {
    expect(refusal(raw)).toMatch(/^holder must (have a visible character|not be empty): give a name of 1–64 visible characters$/);
  });

  it('refuses non-strings and names over 64 characters once trimmed, and counts code points', () => {
    expect(refusal(42)).toBe('holder must be a string: give a name of 1–64 visible characters');
    expect(refusal('a'.repeat(65))).toBe('holder must be at most 64 characters: give a name of 1–64 visible characters');
    expect(holderName(` ${'🚀'.repeat(64)} `)).toBe('🚀'.repeat(64));
  });
});
