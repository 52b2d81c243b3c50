/** One way phones reach the gateway (a TCP port, a WebSocket path) and whether it accepts connections now. */
export interface DeviceListenerState {
  /** The transport's name, e.g. `tcp`. */
  transport: string;
  listening: boolean;
  /** Why it is not listening (e.g. `listen EADDRINUSE: address already in use :::7397`); absent while it listens. */
  error?: string;
}

/**
 * The device listeners of this gateway: readiness probes ask whether phones can connect. Implemented
 * by the device layer, which starts and stops the transports.
 */
export abstract class DeviceListeners {
  /** One state per transport, in the order they were configured; empty when the host configured none. */
  abstract states(): DeviceListenerState[];
}
