import { CLI_EXIT, CliError } from './exit-codes';
import type { GatewayRequestError } from './gateway-client';
import { API_TOKEN_ENV, type GatewayTarget } from './gateway-target';

/** What the failed request was about, for a message that names it. */
export interface RequestSubject {
  deviceId?: string;
  taskId?: string;
}

/** The base URL as a person typed it: no trailing slash. */
export const shownUrl = (target: GatewayTarget): string => target.url.href.replace(/\/$/, '');

/**
 * The one-line message and exit code ({@link CLI_EXIT}) of a failed gateway request: a gateway that
 * is not running, a wrong or missing token, an unknown device or task, an offline phone, invalid
 * arguments, or any other error code of the catalog (shown with its code).
 */
export function describeGatewayFailure(error: GatewayRequestError, target: GatewayTarget, subject: RequestSubject = {}): CliError {
  const url = shownUrl(target);
  if (error.kind === 'unreachable') return new CliError(`no gateway at ${url}: ${error.detail}; start one with \`mobileclaw start\`, or pass --url`, CLI_EXIT.gatewayUnreachable);
  switch (error.code) {
    case 'UNAUTHORIZED':
      return new CliError(
        target.token
          ? `the gateway at ${url} refused the API token (${error.detail}); check --token, ${API_TOKEN_ENV} or run \`mobileclaw login\``
          : `the gateway at ${url} needs an API token: pass --token, set ${API_TOKEN_ENV} or run \`mobileclaw login\``,
        CLI_EXIT.unauthorized,
      );
    case 'DEVICE_NOT_FOUND':
      return new CliError(subject.deviceId ? `no device ${subject.deviceId} on the gateway at ${url} (\`mobileclaw devices\` lists them)` : error.message, CLI_EXIT.notFound);
    case 'TASK_NOT_FOUND':
      return new CliError(subject.taskId ? `no task ${subject.taskId} on the gateway at ${url} (\`mobileclaw tasks\` lists them)` : error.message, CLI_EXIT.notFound);
    case 'DEVICE_DISCONNECTED':
    case 'DEVICE_REPLACED':
      return new CliError(`${error.detail} (${error.code}); \`mobileclaw devices\` shows which phones are online`, CLI_EXIT.deviceOffline);
    case 'VALIDATION_FAILED':
      return new CliError(`the gateway refused the arguments: ${error.fieldErrors?.map((f) => `${f.field}: ${f.message}`).join('; ') || error.detail}`, CLI_EXIT.usage);
    default:
      return new CliError(error.message, CLI_EXIT.requestFailed);
  }
}

/**
 * {@link describeGatewayFailure} for `mobileclaw login` itself: a refused or missing token says
 * which token to log in with (the one the gateway was started with), not to run `mobileclaw login`.
 */
export function describeLoginFailure(error: GatewayRequestError, target: GatewayTarget): CliError {
  if (error.kind === 'unreachable' || error.code !== 'UNAUTHORIZED') return describeGatewayFailure(error, target);
  const refusal = target.token ? `refused the API token (${error.detail})` : 'needs an API token';
  return new CliError(
    `the gateway at ${shownUrl(target)} ${refusal}: log in with the token it was started with (its ${API_TOKEN_ENV}), given by --token-stdin, --token or ${API_TOKEN_ENV}`,
    CLI_EXIT.unauthorized,
  );
}
