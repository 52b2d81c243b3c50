import { TOOL_NAME_MAX_LENGTH, TOOL_NAME_PATTERN, isToolName, sanitizeToolName } from './tool-name';

describe('tool names', () => {
  it('accepts 1–64 ASCII letters, digits, _ and - only', () => {
    for (const name of ['a', 'book_table', 'Weather-Get', '0', '_', '-', 'x'.repeat(64)]) expect(isToolName(name)).toBe(true);
    for (const name of ['', 'x'.repeat(65), 'a.b', 'a b', 'météo', '天気', 'a/b', 'a\nb', 42, null, undefined]) expect(isToolName(name)).toBe(false);
  });

  it('leaves a valid name unchanged', () => {
    for (const name of ['book_table', 'Weather-Get', '_', 'x'.repeat(64)]) expect(sanitizeToolName(name)).toBe(name);
  });

  it('folds accents to ASCII and turns each run of other characters into one underscore', () => {
    expect(sanitizeToolName('météo')).toBe('meteo');
    expect(sanitizeToolName('Ångström Über')).toBe('Angstrom_Uber');
    expect(sanitizeToolName('weather.get now')).toBe('weather_get_now');
    expect(sanitizeToolName('a  ::  b')).toBe('a_b');
    expect(sanitizeToolName('ﬁle')).toBe('file');
  });

  it('trims underscores at either end of a changed name', () => {
    expect(sanitizeToolName('  book table!  ')).toBe('book_table');
    expect(sanitizeToolName('.hidden')).toBe('hidden');
    expect(sanitizeToolName('_x.y')).toBe('x_y');
  });

  it('names what has no ASCII left after a stable hash of the original', () => {
    expect(sanitizeToolName('')).toBe('tool_811c9dc5');
    expect(sanitizeToolName('天気')).toMatch(/^tool_[0-9a-f]{8}$/);
    expect(sanitizeToolName('天気')).toBe(sanitizeToolName('天気'));
    expect(sanitizeToolName('天気')).not.toBe(sanitizeToolName('予報'));
    expect(sanitizeToolName('!!!')).not.toBe(sanitizeToolName('???'));
  });

  it('cuts a long name to 64 characters, ending in a hash that keeps names with one prefix apart', () => {
    const long = `${'a'.repeat(70)}.one`;
    const other = `${'a'.repeat(70)}.two`;
    expect(sanitizeToolName(long)).toHaveLength(TOOL_NAME_MAX_LENGTH);
    expect(sanitizeToolName(long)).toMatch(new RegExp(`^a{55}_[0-9a-f]{8}$`));
    expect(sanitizeToolName(long)).not.toBe(sanitizeToolName(other));
    expect(sanitizeToolName('é'.repeat(80))).toBe(sanitizeToolName('é'.repeat(80)));
  });

  it('always gives a valid name, whatever the input', () => {
    const inputs = ['', ' ', '\u0000', '\u{1F600} smile', 'a'.repeat(1000), 'x.'.repeat(40), '\uD800 lone surrogate', 'ß', 'İstanbul', 'tool name with spaces and ünïcödé', '-'.repeat(65), '_'.repeat(3) + '.'];
    for (const input of inputs) expect(sanitizeToolName(input)).toMatch(TOOL_NAME_PATTERN);
  });
});
