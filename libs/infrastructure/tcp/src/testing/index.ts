/** Test doubles for tests of the TCP device transport and of gateways that serve it. */
export { RawPhone, type ReceivedFrame } from './raw-phone';
