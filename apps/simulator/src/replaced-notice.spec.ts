import { replacedNotice } from './replaced-notice';

describe('replacedNotice', () => {
  it('names the phone, the gateway and the wait, and points at --prefix', () => {
    expect(replacedNotice('phone-1', '127.0.0.1:7397', 750)).toBe(
      'phone-1: another phone with the same device id connected to 127.0.0.1:7397 and took over; ' +
        'retrying in 0.8 s, waiting longer each time it is replaced. ' +
        'Running a second simulator next to this one? Give its phones other ids with --prefix (e.g. --prefix screen-).\n',
    );
  });
});
