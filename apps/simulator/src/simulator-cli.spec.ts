import { runSimulatorCli } from './simulator-cli';

describe('runSimulatorCli', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    process.exitCode = exitCode;
    jest.restoreAllMocks();
  });

  it('answers an empty --token with one line on stderr and exit status 2, no usage text', () => {
    const written: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
    runSimulatorCli(['--token', ''], { MOBILECLAW_DATA_DIR: '/nonexistent-mobileclaw-data' }, 'mobileclaw-sim');
    expect(written).toEqual(['mobileclaw-sim: --token is empty (an unset variable?): pass the device token, or leave --token out to read it from /nonexistent-mobileclaw-data/device-token\n']);
    expect(process.exitCode).toBe(2);
  });

  it('keeps the usage text after a bad option', () => {
    const written: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => written.push(String(chunk)) > 0);
    runSimulatorCli(['--devices', '0', '--token', 'T'], {}, 'mobileclaw-sim');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^mobileclaw-sim: --devices must be an integer from 1 to 100000, got "0"\n\nUsage: /);
    expect(process.exitCode).toBe(2);
  });
});
