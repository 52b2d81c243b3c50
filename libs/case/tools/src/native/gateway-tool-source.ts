import { NEVER, type Observable } from 'rxjs';
import {
  ToolSource,
  controllerOf,
  emptyToolInputSchema,
  toolEligibility,
  toolFailure,
  toolFailureFromError,
  toolSuccess,
  type ControlLeases,
  type DeviceInfo,
  type MobileClawService,
  type ToolContent,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
} from '@mobileclaw/domain';
import { NATIVE_GATEWAY_TOOL_SOURCE } from './native-tool-refs';

/** The name of the gateway's phone listing. */
const LIST_DEVICES = 'list_devices';

/**
 * The gateway's own tools, mode `NATIVE`, source `native:gateway`: today `list_devices` (OBSERVATION,
 * no arguments), whose content is `{devices: [{deviceId, status, model?, manufacturer?, android?,
 * screen?, capabilities, controller?}]}` (online phones first; `controller` while a person holds the
 * phone) and whose text is one line per phone. The list never changes.
 * Failures: `TOOL_NOT_FOUND` for another name, `ABORTED` when the caller gave up before the call.
 */
export class GatewayToolSource extends ToolSource {
  readonly ref = { ...NATIVE_GATEWAY_TOOL_SOURCE };
  /** The list never changes. */
  readonly changes$: Observable<ToolSourceChange> = NEVER;
  private readonly tools: ToolDescriptor[] = [
    {
      name: LIST_DEVICES,
      description:
        'Lists every phone the gateway knows, online ones first: deviceId, status (online, busy, offline), model, Android version, screen size in px, ' +
        'the commands it supports, and who holds it while a person has taken it over. Call it first to pick the deviceId of the phone tools.',
      inputSchema: { ...emptyToolInputSchema(), additionalProperties: false },
      kind: 'OBSERVATION',
      mode: 'NATIVE',
      source: { ...NATIVE_GATEWAY_TOOL_SOURCE },
      location: 'gateway',
      eligibility: toolEligibility(),
      available: true,
    },
  ];

  /** @param leases the phones' takeover leases, to name who holds a phone. */
  constructor(
    private readonly phones: MobileClawService,
    private readonly leases?: ControlLeases,
  ) {
    super();
  }

  override async list(): Promise<ToolDescriptor[]> {
    return structuredClone(this.tools);
  }

  override async invoke(name: string, _args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    if (context.signal.aborted) return toolFailure('ABORTED', `tool ${name}: the caller gave up before the call`);
    if (name !== LIST_DEVICES) return toolFailure('TOOL_NOT_FOUND', `no tool ${name} among the gateway's tools`);
    try {
      const devices = (await this.phones.listDevices()).map((device) => this.summary(device));
      const text = devices.length === 0 ? 'No phone has connected yet.' : devices.map(deviceLine).join('\n');
      return toolSuccess({ devices } as unknown as ToolContent, text);
    } catch (err) {
      return toolFailureFromError(err);
    }
  }

  private summary(device: DeviceInfo): Record<string, unknown> {
    const lease = this.leases?.current(device.deviceId);
    const summary: Record<string, unknown> = { deviceId: device.deviceId, status: device.status };
    for (const key of ['model', 'manufacturer', 'android'] as const) if (device[key] !== undefined) summary[key] = device[key];
    if (device.screen) summary['screen'] = { ...device.screen };
    summary['capabilities'] = [...device.capabilities];
    const controller = lease ? controllerOf(lease) : device.controller;
    if (controller) summary['controller'] = { ...controller };
    return summary;
  }
}

function deviceLine(device: Record<string, unknown>): string {
  const screen = device['screen'] as { width: number; height: number } | undefined;
  const controller = device['controller'] as { holder: string } | undefined;
  const parts = [`${String(device['deviceId'])}: ${String(device['status'])}`];
  if (device['model'] !== undefined) parts.push(String(device['model']));
  if (device['android'] !== undefined) parts.push(`Android ${String(device['android'])}`);
  if (screen) parts.push(`${screen.width}×${screen.height} px`);
  if (controller) parts.push(`held by ${controller.holder}`);
  return parts.join(', ');
}
