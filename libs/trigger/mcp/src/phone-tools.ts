import * as z from 'zod/v4';
import {
  acceptedContent,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type InputResponses,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isMobileClawError, MobileClawError } from '@mobileclaw/domain';
import type { ActionOutcome, PointTarget } from '@mobileclaw/case-device-control';
import { APPROVAL_INPUT, approvalAnswer, approvalForm } from './approval-question';
import { describeFrame, frameSpace } from './frame-text';
import { echoOf } from './mcp-request-guard';
import { registerCheckedTool } from './tool-arguments';
import { clientCanElicit, deviceFor, type PhoneToolDeps } from './tool-context';
import { toolError, toolResult, type NextSteps } from './tool-results';

const deviceId = z.string().min(1).max(128).optional().describe('Phone to use (see list_devices). Optional when only one phone is online or the frameId names it.');
const frameId = z.string().min(1).max(200).describe('frameId returned by get_screen: the screen the element index or coordinates refer to.');
const coordinate = z.number().finite().min(0);
const approved = z
  .boolean()
  .optional()
  .describe(
    'Set true only after the user explicitly approved this very action (payment, deletion…) in the conversation, never on your own. ' +
      'A tap is sensitive when the label (text or description) of the element aimed at or under the point names one: delete, remove, pay, buy, purchase, transfer, subscribe, reset…',
  );
/** An Android package name: at most 255 characters, as Android allows. */
const packageName = z
  .string()
  .max(255)
  .regex(/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/, 'an Android package name such as com.android.settings')
  .describe('Android package name (e.g. com.android.settings), at most 255 characters.');

/** The session-only tool that sets a 2025 session's default phone. */
export const SELECT_DEVICE_TOOL = 'select_device';

/** Read-only, idempotent tools that touch no phone state. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
/** Tools that act on a phone: not read-only, not destructive by themselves (sensitive taps ask for approval). */
const ACTS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;

/**
 * Registers the phone tools on `deps.server`: list_devices, get_screen, tap, long_press, swipe,
 * input_text, press_back, press_home, open_app, list_apps, and select_device on a 2025 session.
 * Every failure is a tool result with `isError`, the stable code and what to do next.
 */
export function registerPhoneTools(deps: PhoneToolDeps, limits: { maxLongSidePx: number; maxBytes: number }): void {
  const { server, control, phones } = deps;
  const fail = failWith(deps);

  registerCheckedTool(
    server,
    'list_devices',
    {
      title: 'List phones',
      description: 'Lists every phone the gateway knows: id, status (online, busy, offline), model, Android version, screen size in px. Call it first to pick a deviceId.',
      inputSchema: z.object({}).strict(),
      annotations: READ_ONLY,
    },
    async () => {
      try {
        const devices = await phones.listDevices();
        const lines = devices.map(
          (d) =>
            `${d.deviceId}: ${d.status}${d.model ? `, ${modelName(d.manufacturer, d.model)}` : ''}${d.android ? `, Android ${d.android}` : ''}${d.screen ? `, ${d.screen.width}×${d.screen.height} px` : ''}`,
        );
        const text = devices.length === 0 ? 'No phone has connected yet.' : lines.join('\n');
        return toolResult(text, {
          devices: devices.map((d) => ({ deviceId: d.deviceId, status: d.status, model: d.model, manufacturer: d.manufacturer, android: d.android, screen: d.screen })),
        });
      } catch (err) {
        return fail(err);
      }
    },
  );

  registerCheckedTool(
    server,
    'get_screen',
    {
      title: 'See the screen',
      description:
        "Shows a phone's current screen: a JPEG screenshot (long side at most " +
        `${limits.maxLongSidePx} px) and the numbered list of on-screen elements (every tappable, editable, checkable or scrollable element, with or without text, plus visible text), ` +
        'with a frameId. Act on it with tap/long_press {frameId, element} (preferred) or {frameId, x, y} in the image px. ' +
        'A frameId stays usable as long as what it showed under the target is still on screen (the last 256 frames are kept).',
      inputSchema: z.object({
        deviceId,
        maxLongSide: z.number().int().min(64).max(limits.maxLongSidePx).optional().describe(`Longest side of the image in px (64–${limits.maxLongSidePx}).`),
        includeImage: z.boolean().optional().describe('false: elements only, no image (faster, fewer tokens). Default true.'),
      }).strict(),
      annotations: READ_ONLY,
    },
    async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const frame = await control.observe(id, {
          image: args.includeImage === false ? false : { maxLongSidePx: args.maxLongSide ?? limits.maxLongSidePx, maxBytes: jpegBudget(limits.maxBytes) },
          signal: ctx.mcpReq.signal,
        });
        const space = frameSpace(frame);
        const result: CallToolResult = {
          content: [{ type: 'text', text: describeFrame(frame) }],
          structuredContent: {
            frameId: frame.frameId,
            deviceId: frame.deviceId,
            screen: frame.screen,
            image: frame.image ? { width: frame.image.width, height: frame.image.height, bytes: frame.image.bytes, mimeType: frame.image.mime } : undefined,
            coordinateSpace: space.size,
            foregroundPackage: frame.foregroundPackage,
            elementCount: frame.elements.length,
          },
        };
        if (frame.image) result.content.push({ type: 'image', data: frame.image.base64, mimeType: frame.image.mime });
        return result;
      } catch (err) {
        return fail(err);
      }
    },
  );

  const pointShape = {
    deviceId,
    frameId: frameId.optional(),
    element: z.number().int().min(0).max(100_000).optional().describe('Index of the element in the frame (from get_screen). Needs frameId.'),
    x: coordinate.optional().describe("x in the frame image's px (with frameId) or in screen px (without)."),
    y: coordinate.optional().describe("y in the frame image's px (with frameId) or in screen px (without)."),
    approved,
  };

  registerCheckedTool(
    server,
    'tap',
    {
      title: 'Tap',
      description:
        'Taps an element of a screen ({frameId, element}) or a point ({frameId, x, y} in the image px of get_screen; or {x, y} in screen px). ' +
        'Fails with STALE_FRAME, sending nothing, when what the frame showed there (the element, or nothing) is not what is there now. ' +
        'A sensitive tap (pay, delete…) asks the user where the client can be asked, else fails APPROVAL_REQUIRED. Call get_screen afterwards to see the effect.',
      inputSchema: z.object(pointShape).strict(),
      annotations: ACTS,
    },
    (args, ctx) => withApproval(deps, ctx, args, (id, ok) => control.tap(id, args, { signal: ctx.mcpReq.signal, approved: ok }), 'tap'),
  );

  registerCheckedTool(
    server,
    'long_press',
    {
      title: 'Long press',
      description: 'Long-presses an element or point, addressed as for tap. durationMs defaults to the phone\'s long-press time.',
      inputSchema: z.object({ ...pointShape, durationMs: z.number().int().min(100).max(10_000).optional().describe('Press duration in ms (100–10000).') }).strict(),
      annotations: ACTS,
    },
    (args, ctx) => withApproval(deps, ctx, args, (id, ok) => control.longPress(id, args, { signal: ctx.mcpReq.signal, approved: ok }), 'long_press'),
  );

  const point = z.object({ x: coordinate, y: coordinate }).strict();
  registerCheckedTool(
    server,
    'swipe',
    {
      title: 'Swipe',
      description:
        'Swipes from one point to another ({from, to}: image px of frameId, or screen px without it), or moves the finger in a direction ' +
        'across the screen or across a scrollable element {frameId, element}. direction is the way the finger moves: up scrolls the content ' +
        'so that what is below comes into view, down brings what is above, left what is to the right, right what is to the left.',
      inputSchema: z.object({
        deviceId,
        frameId: frameId.optional(),
        from: point.optional(),
        to: point.optional(),
        direction: z
          .enum(['up', 'down', 'left', 'right'])
          .optional()
          .describe('Direction the finger moves: up scrolls the content so that what is below comes into view.'),
        element: z.number().int().min(0).max(100_000).optional().describe('Scrollable element of the frame to swipe across (with direction).'),
        durationMs: z.number().int().min(50).max(10_000).optional().describe('Gesture duration in ms.'),
      }).strict(),
      annotations: ACTS,
    },
    async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const outcome = await control.swipe(id, args, { signal: ctx.mcpReq.signal });
        return toolResult(`Swiped on ${id} along (${outcome.path!.join(',')}) in screen px.`, outcomeFacts(outcome, deps));
      } catch (err) {
        return fail(err);
      }
    },
  );

  registerCheckedTool(
    server,
    'input_text',
    {
      title: 'Type text',
      description:
        'Types text into the focused field (tap the field first). Any Unicode is sent exactly. clear: true replaces the field\'s text. ' +
        'The result says whether the field now holds the text.',
      inputSchema: z.object({
        deviceId,
        text: z.string().max(10_000).describe('Text to type, sent unchanged (at most 10 000 characters).'),
        clear: z.boolean().optional().describe('Replace the current text instead of appending.'),
      }).strict(),
      annotations: ACTS,
    },
    async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const outcome = await control.inputText(id, args.text, { signal: ctx.mcpReq.signal, clear: args.clear });
        const holds =
          outcome.holdsText === null
            ? 'The field hides its text (password), so it cannot be checked.'
            : outcome.holdsText
              ? 'The focused field now holds the text.'
              : outcome.fieldText === undefined
                ? 'No field has the focus now: the text may not have landed; tap the field and call get_screen.'
                : `The focused field does not hold the text; it shows ${JSON.stringify(echoOf(outcome.fieldText))}.`;
        return toolResult(`Typed ${[...args.text].length} characters on ${id}. ${holds}`, { ...outcomeFacts(outcome, deps), holdsText: outcome.holdsText, fieldText: outcome.fieldText });
      } catch (err) {
        return fail(err);
      }
    },
  );

  for (const [name, title, description, press] of [
    ['press_back', 'Back', 'Presses the Back button.', (id: string, signal: AbortSignal) => control.pressBack(id, { signal })],
    ['press_home', 'Home', 'Presses the Home button (goes to the launcher).', (id: string, signal: AbortSignal) => control.pressHome(id, { signal })],
  ] as const) {
    registerCheckedTool(server, name, { title, description, inputSchema: z.object({ deviceId }).strict(), annotations: ACTS }, async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const outcome = await press(id, ctx.mcpReq.signal);
        return toolResult(`Pressed ${title} on ${id}.`, outcomeFacts(outcome, deps));
      } catch (err) {
        return fail(err);
      }
    });
  }

  registerCheckedTool(
    server,
    'open_app',
    {
      title: 'Open an app',
      description: 'Opens an app by its Android package name (e.g. com.android.settings) and checks that it came to the foreground.',
      inputSchema: z.object({ deviceId, app: packageName }).strict(),
      annotations: ACTS,
    },
    async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const outcome = await control.openApp(id, args.app, { signal: ctx.mcpReq.signal });
        const text = outcome.verified
          ? `Opened ${args.app} on ${id}; it is in the foreground.`
          : `Asked ${id} to open ${args.app}, but the foreground app is ${outcome.foregroundPackage ?? 'unknown'}; call get_screen.`;
        return toolResult(text, { ...outcomeFacts(outcome, deps), verified: outcome.verified, foregroundPackage: outcome.foregroundPackage });
      } catch (err) {
        const notInstalled = isMobileClawError(err, 'DEVICE_ERROR') && err.deviceCode === 'APP_NOT_FOUND';
        return fail(err, notInstalled ? { DEVICE_ERROR: "The package name may be wrong: call press_home, then get_screen to find the app's icon on the launcher, and tap it." } : {});
      }
    },
  );

  registerCheckedTool(
    server,
    'list_apps',
    {
      title: 'List apps',
      description: 'Lists the apps installed on a phone, where the phone can tell (capability list_apps).',
      inputSchema: z.object({ deviceId }).strict(),
      annotations: READ_ONLY,
    },
    async (args) => {
      try {
        return await control.listApps(await deviceFor(deps, args));
      } catch (err) {
        return fail(err);
      }
    },
  );

  if (deps.session) {
    const session = deps.session;
    registerCheckedTool(
      server,
      SELECT_DEVICE_TOOL,
      {
        title: 'Select a phone',
        description: 'Makes a phone the default of this session: later calls without deviceId use it.',
        inputSchema: z.object({ deviceId: z.string().min(1).max(128).describe('Phone to use from now on (see list_devices).') }).strict(),
        annotations: { ...READ_ONLY, idempotentHint: true },
      },
      async (args) => {
        try {
          const device = await phones.getDevice(args.deviceId);
          session.selectedDeviceId = device.deviceId;
          return toolResult(`${device.deviceId} (${device.status}) is now this session's phone.`, { deviceId: device.deviceId, status: device.status });
        } catch (err) {
          return fail(err);
        }
      },
    );
  }
}

/** Largest JPEG, in bytes, whose base64 text (4 characters per 3 bytes) fits `base64Bytes`. */
export function jpegBudget(base64Bytes: number): number {
  return Math.floor((base64Bytes * 3) / 4);
}

/** The facts of an outcome as structured content (points in screen px). */
function outcomeFacts(outcome: ActionOutcome, deps?: PhoneToolDeps): Record<string, unknown> {
  deps?.screenChanged?.(outcome.deviceId);
  const facts: Record<string, unknown> = { deviceId: outcome.deviceId, requestId: outcome.requestId, command: outcome.command, durationMs: outcome.durationMs };
  if (outcome.point) facts['point'] = outcome.point;
  if (outcome.path) facts['path'] = outcome.path;
  if (outcome.element) facts['element'] = { index: outcome.element.index, type: outcome.element.type, text: outcome.element.text, desc: outcome.element.desc };
  return facts;
}

/**
 * `Manufacturer Model`, or the model alone when it already starts with the manufacturer's name
 * (`MobileClaw Sim` by MobileClaw, `Pixel 8` by Google: `Google Pixel 8`).
 */
export function modelName(manufacturer: string | undefined, model: string): string {
  return manufacturer && !model.toLowerCase().startsWith(manufacturer.toLowerCase()) ? `${manufacturer} ${model}` : model;
}

/**
 * `toolError` with this connection's next steps: on a 2025 session, DEVICE_AMBIGUOUS also points to
 * select_device.
 */
export function failWith(deps: PhoneToolDeps): (err: unknown, more?: NextSteps) => CallToolResult {
  const steps: NextSteps = deps.session ? { DEVICE_AMBIGUOUS: 'Or make one the default of this session with select_device.' } : {};
  return (err, more = {}) => toolError(err, { ...steps, ...more });
}

/** What a tap or long press seals into the `requestState` of its approval question: the tool and its exact target. */
interface ApprovalQuestionState {
  tool: 'tap' | 'long_press';
  question: typeof APPROVAL_INPUT;
  /** JSON of `[deviceId, frameId, element, x, y]` (null for an absent one). */
  target: string;
}

/**
 * The client's answers to this server's approval question: only when the call carries the sealed
 * `requestState` of that question, for this tool and this very target. An `inputResponses` the
 * server did not ask for (or asked about another action) is ignored: an answer must not be made up.
 */
function solicitedResponses(ctx: ServerContext, expected: ApprovalQuestionState): InputResponses | undefined {
  const sealed = ctx.mcpReq.requestState<Partial<ApprovalQuestionState>>();
  const asked = sealed?.tool === expected.tool && sealed.question === expected.question && sealed.target === expected.target;
  return asked ? (ctx.mcpReq.inputResponses as InputResponses | undefined) : undefined;
}

/**
 * Runs a tap or long press; when it is sensitive and not yet approved, asks the user through
 * `input_required` (an elicitation on 2025 sessions) if the client can be asked, sealing the question
 * in `requestState`, else answers `APPROVAL_REQUIRED`. A declined question answers `APPROVAL_DENIED`;
 * nothing is sent to the phone.
 */
async function withApproval(
  deps: PhoneToolDeps,
  ctx: ServerContext,
  args: PointTarget & { deviceId?: string; frameId?: string; approved?: boolean },
  run: (deviceId: string, approved: boolean) => Promise<ActionOutcome>,
  tool: ApprovalQuestionState['tool'],
): Promise<CallToolResult | InputRequiredResult> {
  const verb = tool === 'tap' ? 'tap' : 'long press';
  try {
    const id = await deviceFor(deps, args);
    const question: ApprovalQuestionState = {
      tool,
      question: APPROVAL_INPUT,
      target: JSON.stringify([id, args.frameId ?? null, args.element ?? null, args.x ?? null, args.y ?? null]),
    };
    const responses = solicitedResponses(ctx, question);
    const answer = inputResponse(responses, APPROVAL_INPUT);
    if (answer.kind === 'elicit' && answer.action !== 'accept') {
      throw new MobileClawError('APPROVAL_DENIED', `the user declined the ${verb}; nothing was sent to ${id}`, { deviceId: id });
    }
    const approval = acceptedContent(responses, APPROVAL_INPUT, approvalAnswer);
    if (approval && !approval.approve) {
      throw new MobileClawError('APPROVAL_DENIED', `the user declined the ${verb}; nothing was sent to ${id}`, { deviceId: id });
    }
    try {
      const outcome = await run(id, args.approved === true || approval?.approve === true);
      const element = outcome.element;
      const label = element?.text ?? element?.desc;
      const on = element ? ` on [${element.index}] ${element.type}${label === undefined ? '' : ` ${JSON.stringify(echoOf(label))}`}` : '';
      return toolResult(`Did a ${verb}${on} of ${outcome.deviceId} at (${outcome.point!.join(',')}) in screen px.`, outcomeFacts(outcome, deps));
    } catch (err) {
      if (!isMobileClawError(err, 'APPROVAL_REQUIRED') || !clientCanElicit(deps, ctx)) throw err;
      return inputRequired({
        inputRequests: {
          [APPROVAL_INPUT]: inputRequired.elicit({
            message: `${err.message}. Approve this ${verb} on ${id}?`,
            requestedSchema: approvalForm(),
          }),
        },
        requestState: await deps.requestState.mint(question),
      });
    }
  } catch (err) {
    return failWith(deps)(err);
  }
}
