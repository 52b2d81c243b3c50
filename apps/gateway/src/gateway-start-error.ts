/**
 * A gateway that cannot start, for a reason its message states with what to do about it (a server out
 * of reach, an instance id in use): the CLI prints the message as one line, `mobileclaw: <message>`,
 * without a stack — the stack says nothing the message does not. `cause` keeps the underlying error.
 */
export class GatewayStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayStartError';
  }
}
