import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { PairingHostSource } from './pairing-host';

const HOST_SOURCES: PairingHostSource[] = ['configured', 'device-listener', 'request', 'interface', 'loopback'];

/** OpenAPI schema of `GET /api/pairing` (mirrors `PairingInfo`; documentation only). */
@ApiSchema({ name: 'PairingInfo', description: 'How a new phone connects: the pairing link, its QR code, and the values to type by hand.' })
export class PairingInfoSchema {
  @ApiProperty({ description: 'The link the MobileClaw app opens (from a QR code, a tap, or pasted): `mobileclaw://pair?host=…&port=…&token=…`, `&tls=1` when TLS.', example: 'mobileclaw://pair?host=192.168.1.20&port=7397&token=9f1c2e7a4b5d6c8e0a1b2c3d4e5f6a7b' })
  link!: string;

  @ApiProperty({ description: 'Host name or IP address the phone connects to.', example: '192.168.1.20' })
  host!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 65535, description: 'The device port.', example: 7397 })
  port!: number;

  @ApiProperty({ enum: ['tcp'], description: 'The app connects over TCP (the device port), not the WebSocket.' })
  transport!: 'tcp';

  @ApiProperty({ description: 'True when a TLS-terminating proxy is in front of the device port (`MOBILECLAW_PAIRING_ADDRESS=tls://…`).' })
  tls!: boolean;

  @ApiProperty({ description: 'The device token phones authenticate with.' })
  deviceToken!: string;

  @ApiProperty({ enum: HOST_SOURCES, description: '`configured`: MOBILECLAW_PAIRING_ADDRESS; `device-listener`: MOBILECLAW_DEVICE_HOST; `request`: the Host header this request came with; `interface`: this machine\'s first LAN IPv4 address; `loopback`: none found.' })
  hostSource!: PairingHostSource;

  @ApiProperty({ description: 'True unless the address was configured.' })
  hostGuessed!: boolean;

  @ApiProperty({ type: [String], description: 'What the user should know about the host (e.g. that it is a guess, or that a phone cannot reach it).' })
  warnings!: string[];

  @ApiProperty({ description: 'The link as a QR code: an SVG document, black on white, sized by its viewBox.' })
  qrSvg!: string;
}
