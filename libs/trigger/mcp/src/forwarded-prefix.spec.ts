import { forwardedPrefix } from './mcp-http.endpoint';

describe('forwardedPrefix', () => {
  it.each([
    ['/phones', '/phones'],
    ['/phones/', '/phones'],
    ['/a/b.c_d~e', '/a/b.c_d~e'],
    ['/team%20a/mcp', '/team%20a/mcp'],
    ['  /phones , /other', '/phones'],
    [['/first', '/second'], '/first'],
    ['/', ''],
    ['///', ''],
  ] as const)('keeps the plain absolute path %j as %j', (header, prefix) => {
    expect(forwardedPrefix(header as string | string[])).toBe(prefix);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['an empty list', []],
    ['relative', 'phones'],
    ['protocol-relative (another host)', '//evil.example/x'],
    ['a URL', 'https://evil.example/x'],
    ['with a space', '/a b'],
    ['with a line break', '/a\r\nX-Injected: 1'],
    ['with a backslash', '/\\evil.example'],
    ['with a query', '/a?b=c'],
    ['with a fragment', '/a#b'],
    ['with a quote', '/a"b'],
  ])('drops a prefix that is %s', (_, header) => {
    expect(forwardedPrefix(header)).toBe('');
  });
});
