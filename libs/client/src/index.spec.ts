import { CLIENT_PACKAGE } from './index';

describe('@mobileclaw/client', () => {
  it('names its package', () => {
    expect(CLIENT_PACKAGE).toBe('@mobileclaw/client');
  });
});
