import { loadGatewayConfig, validateGatewayEnvironment } from './gateway-config';

describe('gateway configuration of the pairing address', () => {
  it('is guessed per request unless MOBILECLAW_PAIRING_ADDRESS is set', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').pairingAddress).toBeUndefined();
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_PAIRING_ADDRESS: '' }), '/srv').pairingAddress).toBeUndefined();
  });

  it('reads host, host:port and tls://host:port', () => {
    const read = (value: string) => loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_PAIRING_ADDRESS: value }), '/srv').pairingAddress;
    expect(read('192.168.1.20')).toEqual({ host: '192.168.1.20', port: undefined, tls: false });
    expect(read('gw.local:7400')).toEqual({ host: 'gw.local', port: 7400, tls: false });
    expect(read('tls://gw.example.org:443')).toEqual({ host: 'gw.example.org', port: 443, tls: true });
  });

  it('refuses anything else at start, naming the variable', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_PAIRING_ADDRESS: 'https://gw.example.org' })).toThrow(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_PAIRING_ADDRESS must be host, host:port or tls://host:port (port 1-65535), got "https://gw.example.org"',
    );
  });
});
