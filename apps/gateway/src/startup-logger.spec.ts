import { MobileClawError } from '@mobileclaw/domain';
import { GatewayStartError } from './gateway-start-error';
import { StartupLogger } from './startup-logger';

/** What `write` sends to stdout and stderr, as text. */
function printed(write: (logger: StartupLogger) => void): { stdout: string; stderr: string } {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    write(new StartupLogger({ colors: false }));
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return { stdout: out.join(''), stderr: err.join('') };
}

describe('StartupLogger (a failed start)', () => {
  it("drops Nest's progress lines and debug output, keeps the modules' warnings and errors", () => {
    const { stdout, stderr } = printed((logger) => {
      logger.log('Starting Nest application...', 'NestFactory');
      logger.debug('details', 'Memory');
      logger.verbose('more details', 'Memory');
      logger.warn('the data directory was readable by others', 'DataDirectory');
      logger.error('the embeddings endpoint refused the key', undefined, 'Memory');
    });
    expect(stdout).toMatch(/WARN \[DataDirectory\] the data directory was readable by others\n$/);
    expect(stdout).not.toMatch(/Starting Nest application|details/);
    expect(stderr).toMatch(/ERROR \[Memory\] the embeddings endpoint refused the key\n$/);
  });

  it("drops Nest's report of a start error that says what to do (printed by the CLI in one line), keeps it for any other error", () => {
    const quiet = printed((logger) => {
      logger.error(new GatewayStartError('cannot reach the database'), 'ExceptionHandler');
      logger.error(new MobileClawError('STORAGE_ERROR', 'the store failed'), 'ExceptionHandler');
    });
    expect(quiet).toEqual({ stdout: '', stderr: '' });
    const bug = printed((logger) => logger.error(new TypeError("Cannot read properties of undefined (reading 'x')"), 'ExceptionHandler'));
    expect(bug.stderr).toMatch(/ERROR \[ExceptionHandler\] TypeError: Cannot read properties of undefined \(reading 'x'\)\n\s+at /);
  });
});
