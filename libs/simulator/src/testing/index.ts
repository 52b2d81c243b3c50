/** Test doubles for tests of the simulated phone and of gateways it talks to. */
export { ManualReconnectTimers } from '@mobileclaw/phone-link/testing';
