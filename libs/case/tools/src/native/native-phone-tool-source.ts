import { NEVER, type Observable } from 'rxjs';
import {
  AGENT_ACTION_NAMES,
  COMMAND_NAMES,
  COMMAND_SCHEMAS,
  ToolSource,
  toolEligibility,
  toolFailure,
  toolFailureFromError,
  toolSuccess,
  type Command,
  type CommandName,
  type CommandResult,
  type ControlLeases,
  type MobileClawService,
  type ScreenImageEncoder,
  type ScreenImageLimits,
  type ScreenshotData,
  type ToolContent,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
  type UiTreeData,
} from '@mobileclaw/domain';
import { NATIVE_PHONE_TOOL_SOURCE, phoneToolName } from './native-tool-refs';
import { describeUiTree } from './ui-tree-outline';

/**
 * The bounds of `phone_screenshot`'s image: long side 1280 px, 150 KiB of JPEG — 200 KiB of base64,
 * so that the whole result stays under the registry's 256 KiB of JSON.
 */
export const PHONE_SCREENSHOT_LIMITS: Readonly<ScreenImageLimits> = Object.freeze({ maxLongSidePx: 1280, maxBytes: 150 * 1024 });

/** How a {@link NativePhoneToolSource} reaches what it needs besides the phones. */
export interface NativePhoneToolOptions {
  /** The phones' takeover leases: while a person holds a phone, its ACTION tools fail `DEVICE_CONTROLLED` and send nothing. */
  leases?: ControlLeases;
  /** Re-encodes `phone_screenshot`'s image as a bounded JPEG; without one, an image over the budget is left out (see {@link NativePhoneToolSource}). */
  images?: ScreenImageEncoder;
  /** The screenshot's bounds; default {@link PHONE_SCREENSHOT_LIMITS}. */
  screenshotLimits?: ScreenImageLimits;
}

/** `deviceId`, the first argument of every phone tool. */
const DEVICE_ID_SCHEMA = { type: 'string', minLength: 1, maxLength: 128, description: 'The phone to use, as list_devices names it (e.g. sim-1).' };
/** `frameId`, an optional argument of every ACTION tool. */
const FRAME_ID_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 256,
  description: 'The frame the action was planned on (from phone_screenshot or phone_ui_tree): the phone answers STALE_FRAME, doing nothing, when the screen size or rotation changed since.',
};

/** The tool's description: the command's, plus what the tool adds. */
const EXTRA_DESCRIPTION: Partial<Record<CommandName, string>> = {
  screenshot:
    ` The image is a JPEG whose long side is at most the gateway's bound (default ${PHONE_SCREENSHOT_LIMITS.maxLongSidePx} px, ${PHONE_SCREENSHOT_LIMITS.maxBytes / 1024} KiB), as base64 in image.base64, with its size in px;` +
    ' coordinates of the other phone tools are device px (screen.width × screen.height), not image px.',
  ui_tree: ' Prefer it to a screenshot to find what to tap: the centre of a node\'s bounds is a point to click.',
};

/**
 * The phone's commands as tools of mode `NATIVE`, source `native:phone`: one tool `phone_<command>`
 * per command ({@link COMMAND_NAMES}), its arguments `{deviceId, ...the command's arguments}` (the
 * command's schema, {@link COMMAND_SCHEMAS}; ACTION tools also take an optional `frameId`), kind
 * `OBSERVATION` for `phone_screenshot` and `phone_ui_tree`, `ACTION` for the others. The list never
 * changes.
 *
 * A call is one {@link MobileClawService.execute} with the call's signal and deadline (`timeoutMs`).
 * The result's content:
 * - an action: `{deviceId, command, requestId, durationMs, data}` (`data`: the phone's reply);
 * - `phone_ui_tree`: `{deviceId, frameId?, screen?, nodes}` (the phone's tree), text an outline of its
 *   nodes with text, description, resource id or a flag;
 * - `phone_screenshot`: `{deviceId, frameId?, screen?, image?: {mime, width, height, bytes, base64}, omitted?}`:
 *   with an image encoder, always a JPEG within {@link PHONE_SCREENSHOT_LIMITS}; without one, the
 *   phone's image as it came when its base64 fits the budget, else no `image` and `omitted` says why
 *   and how to ask for a smaller one (`format: 'jpeg'`, `maxWidth`). Its text never carries the image.
 *
 * Failures are answers with the catalog code: `DEVICE_NOT_FOUND` (unknown phone), `DEVICE_DISCONNECTED`
 * (the phone went away), `DEVICE_CONTROLLED` (an action while a person holds the phone; nothing is
 * sent), `ABORTED`, `TIMEOUT`, `VALIDATION_FAILED` and the other codes of `MobileClawService.execute`;
 * `TOOL_NOT_FOUND` for a name it does not list.
 */
export class NativePhoneToolSource extends ToolSource {
  readonly ref = { ...NATIVE_PHONE_TOOL_SOURCE };
  /** The list never changes. */
  readonly changes$: Observable<ToolSourceChange> = NEVER;
  private readonly commandByTool = new Map<string, CommandName>(COMMAND_NAMES.map((command) => [phoneToolName(command), command]));
  private readonly tools: ToolDescriptor[];
  private readonly limits: ScreenImageLimits;

  constructor(
    private readonly phones: MobileClawService,
    private readonly options: NativePhoneToolOptions = {},
  ) {
    super();
    this.limits = options.screenshotLimits ?? PHONE_SCREENSHOT_LIMITS;
    this.tools = COMMAND_NAMES.map((command) => this.descriptor(command));
  }

  override async list(): Promise<ToolDescriptor[]> {
    return structuredClone(this.tools);
  }

  override async invoke(name: string, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    if (context.signal.aborted) return toolFailure('ABORTED', `tool ${name}: the caller gave up before the call`);
    const command = this.commandByTool.get(name);
    if (command === undefined) return toolFailure('TOOL_NOT_FOUND', `no tool ${name} among the phone tools`);
    const deviceId = args['deviceId'];
    if (typeof deviceId !== 'string' || deviceId === '') return toolFailure('VALIDATION_FAILED', `tool ${name}: deviceId must be a phone's id (see list_devices)`);
    const frameId = typeof args['frameId'] === 'string' ? args['frameId'] : undefined;
    try {
      if ((AGENT_ACTION_NAMES as readonly string[]).includes(command)) this.options.leases?.assertFree(deviceId);
      const result = await this.phones.execute<unknown>(deviceId, commandOf(command, args), { timeoutMs: context.deadlineMs, signal: context.signal, frameId });
      if (command === 'screenshot') return await this.screenshot(result as CommandResult<ScreenshotData>);
      if (command === 'ui_tree') return uiTree(result as CommandResult<UiTreeData>);
      const data = (result.data ?? {}) as Record<string, ToolContent>;
      const content = { deviceId: result.deviceId, command: result.command, requestId: result.requestId, durationMs: result.durationMs, data };
      return toolSuccess(content, `${command} done on ${result.deviceId} in ${result.durationMs} ms${Object.keys(data).length > 0 ? `: ${JSON.stringify(data)}` : ''}`);
    } catch (err) {
      return toolFailureFromError(err);
    }
  }

  private descriptor(command: CommandName): ToolDescriptor {
    const schema = COMMAND_SCHEMAS[command];
    const action = schema.kind === 'ACTION';
    const properties: Record<string, unknown> = { deviceId: DEVICE_ID_SCHEMA, ...structuredClone(schema.arguments.properties ?? {}), ...(action ? { frameId: FRAME_ID_SCHEMA } : {}) };
    return {
      name: phoneToolName(command),
      description: `${schema.description}${EXTRA_DESCRIPTION[command] ?? ''}${action ? ' Fails DEVICE_CONTROLLED while a person has taken the phone over.' : ''}`,
      inputSchema: { type: 'object', properties, required: ['deviceId', ...(schema.arguments.required ?? [])], additionalProperties: false },
      kind: schema.kind,
      mode: 'NATIVE',
      source: { ...NATIVE_PHONE_TOOL_SOURCE },
      location: `command ${command}`,
      eligibility: toolEligibility(),
      available: true,
    };
  }

  private async screenshot(result: CommandResult<ScreenshotData>): Promise<ToolInvocationResult> {
    const shot = result.data;
    const facts = { deviceId: result.deviceId, ...(shot.frameId !== undefined ? { frameId: shot.frameId } : {}), ...(shot.screen ? { screen: { ...shot.screen } } : {}) };
    const screen = shot.screen ? `, screen ${shot.screen.width}×${shot.screen.height} px` : '';
    const frame = shot.frameId !== undefined ? `, frameId ${shot.frameId}` : '';
    if (this.options.images) {
      const image = await this.options.images.encode(shot, this.limits);
      return toolSuccess(
        { ...facts, image: { mime: image.mime, width: image.width, height: image.height, bytes: image.bytes, base64: image.base64 } },
        `Screenshot of ${result.deviceId}: ${image.mime} ${image.width}×${image.height} px (${image.bytes} bytes)${screen}${frame}.`,
      );
    }
    const bytes = Math.floor((shot.base64.length * 3) / 4);
    const budget = Math.ceil((this.limits.maxBytes * 4) / 3);
    if (shot.base64.length <= budget) {
      return toolSuccess(
        { ...facts, image: { mime: shot.mime, width: shot.width, height: shot.height, bytes, base64: shot.base64 } },
        `Screenshot of ${result.deviceId}: ${shot.mime} ${shot.width}×${shot.height} px (${bytes} bytes)${screen}${frame}.`,
      );
    }
    const omitted = `the ${shot.mime} image (${shot.width}×${shot.height} px, ${bytes} bytes) is over the ${this.limits.maxBytes} bytes a result may carry; ask for a smaller one (format: "jpeg", maxWidth) or read phone_ui_tree`;
    return toolSuccess({ ...facts, omitted }, `Screenshot of ${result.deviceId}${screen}${frame}: ${omitted}.`);
  }
}

/** The command a call means: `command` and the arguments its schema names (deviceId, frameId and anything else left out). */
function commandOf(command: CommandName, args: Record<string, unknown>): Command {
  const names = Object.keys(COMMAND_SCHEMAS[command].arguments.properties ?? {});
  return { command, ...Object.fromEntries(names.filter((key) => args[key] !== undefined).map((key) => [key, args[key]])) } as Command;
}

function uiTree(result: CommandResult<UiTreeData>): ToolInvocationResult {
  const tree = result.data;
  const content = {
    deviceId: result.deviceId,
    ...(tree.frameId !== undefined ? { frameId: tree.frameId } : {}),
    ...(tree.screen ? { screen: { ...tree.screen } } : {}),
    nodes: tree.nodes as unknown as ToolContent,
  };
  return toolSuccess(content, describeUiTree(result.deviceId, tree));
}
