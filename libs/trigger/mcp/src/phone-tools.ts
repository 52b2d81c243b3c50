import * as z from 'zod/v4';
import { acceptedContent, inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { isMobileClawError, MobileClawError } from '@mobileclaw/domain';
import type { ActionOutcome, PointTarget } from '@mobileclaw/case-device-control';
import { APPROVAL_INPUT, approvalAnswer, approvalForm } from './approval-question';
import { describeFrame, frameSpace } from './frame-text';
import { clientCanElicit, deviceFor, type PhoneToolDeps } from './tool-context';
import { toolError, toolResult } from './tool-results';

const deviceId = z.string().min(1).max(128).optional().describe('Phone to use (see list_devices). Optional when only one phone is online or the frameId names it.');
const frameId = z.string().min(1).max(200).describe('frameId returned by get_screen: the screen the element index or coordinates refer to.');
const coordinate = z.number().finite().min(0);
const approved = z
  .boolean()
  .optional()
  .describe('Set true only after the user explicitly approved this sensitive action (payment, deletion…).');


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

  server.registerTool(
    'list_devices',
    {
      title: 'List phones',
      description: 'Lists every phone the gateway knows: id, status (online, busy, offline), model, Android version, screen size in px. Call it first to pick a deviceId.',
      annotations: READ_ONLY,
    },
    async () => {
      try {
        const devices = await phones.listDevices();
        const lines = devices.map(
          (d) =>
            `${d.deviceId}: ${d.status}${d.model ? `, ${d.manufacturer ? `${d.manufacturer} ` : ''}${d.model}` : ''}${d.android ? `, Android ${d.android}` : ''}${d.screen ? `, ${d.screen.width}×${d.screen.height} px` : ''}`,
        );
        const text = devices.length === 0 ? 'No phone has connected yet.' : lines.join('\n');
        return toolResult(text, {
          devices: devices.map((d) => ({ deviceId: d.deviceId, status: d.status, model: d.model, manufacturer: d.manufacturer, android: d.android, screen: d.screen })),
        });
      } catch (err) {
        return toolError(err);
      }
    },
  );

  server.registerTool(
    'get_screen',
    {
      title: 'See the screen',
      description:
        "Shows a phone's current screen: a JPEG screenshot (long side at most " +
        `${limits.maxLongSidePx} px) and the numbered list of on-screen elements (every tappable, editable, checkable or scrollable element, with or without text, plus visible text), ` +
        'with a frameId. Act on it with tap/long_press {frameId, element} (preferred) or {frameId, x, y} in the image px.',
      inputSchema: z.object({
        deviceId,
        maxLongSide: z.number().int().min(64).max(limits.maxLongSidePx).optional().describe(`Longest side of the image in px (64–${limits.maxLongSidePx}).`),
        includeImage: z.boolean().optional().describe('false: elements only, no image (faster, fewer tokens). Default true.'),
      }),
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
        return toolError(err);
      }
    },
  );

  const pointShape = {
    deviceId,
    frameId: frameId.optional(),
    element: z.number().int().min(0).optional().describe('Index of the element in the frame (from get_screen). Needs frameId.'),
    x: coordinate.optional().describe("x in the frame image's px (with frameId) or in screen px (without)."),
    y: coordinate.optional().describe("y in the frame image's px (with frameId) or in screen px (without)."),
    approved,
  };

  server.registerTool(
    'tap',
    {
      title: 'Tap',
      description:
        'Taps an element of a screen ({frameId, element}) or a point ({frameId, x, y} in the image px of get_screen; or {x, y} in screen px). ' +
        'Fails with STALE_FRAME, sending nothing, when the element is no longer on screen. Call get_screen afterwards to see the effect.',
      inputSchema: z.object(pointShape),
      annotations: ACTS,
    },
    (args, ctx) => withApproval(deps, ctx, args.approved, (id, ok) => control.tap(id, args, { signal: ctx.mcpReq.signal, approved: ok }), args, 'tap'),
  );

  server.registerTool(
    'long_press',
    {
      title: 'Long press',
      description: 'Long-presses an element or point, addressed as for tap. durationMs defaults to the phone\'s long-press time.',
      inputSchema: z.object({ ...pointShape, durationMs: z.number().int().min(100).max(10_000).optional().describe('Press duration in ms (100–10000).') }),
      annotations: ACTS,
    },
    (args, ctx) =>
      withApproval(deps, ctx, args.approved, (id, ok) => control.longPress(id, args, { signal: ctx.mcpReq.signal, approved: ok }), args, 'long press'),
  );

  const point = z.object({ x: coordinate, y: coordinate });
  server.registerTool(
    'swipe',
    {
      title: 'Swipe',
      description:
        'Swipes from one point to another ({from, to}, image px of frameId or screen px without it), or moves the finger in a direction ' +
        '(up scrolls the content down to reveal what is below) across the screen or across a scrollable element {frameId, element}.',
      inputSchema: z.object({
        deviceId,
        frameId: frameId.optional(),
        from: point.optional(),
        to: point.optional(),
        direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('Direction the finger moves.'),
        element: z.number().int().min(0).optional().describe('Scrollable element of the frame to swipe across (with direction).'),
        durationMs: z.number().int().min(50).max(10_000).optional().describe('Gesture duration in ms.'),
      }),
      annotations: ACTS,
    },
    async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const outcome = await control.swipe(id, args, { signal: ctx.mcpReq.signal });
        return toolResult(`Swiped on ${id} along (${outcome.path!.join(',')}) in screen px.`, outcomeFacts(outcome, deps));
      } catch (err) {
        return toolError(err);
      }
    },
  );

  server.registerTool(
    'input_text',
    {
      title: 'Type text',
      description:
        'Types text into the focused field (tap the field first). Any Unicode is sent exactly. clear: true replaces the field\'s text. ' +
        'The result says whether the field now holds the text.',
      inputSchema: z.object({
        deviceId,
        text: z.string().max(10_000).describe('Text to type, sent unchanged.'),
        clear: z.boolean().optional().describe('Replace the current text instead of appending.'),
      }),
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
                : `The focused field does not hold the text; it shows ${JSON.stringify(outcome.fieldText)}.`;
        return toolResult(`Typed ${[...args.text].length} characters on ${id}. ${holds}`, { ...outcomeFacts(outcome, deps), holdsText: outcome.holdsText, fieldText: outcome.fieldText });
      } catch (err) {
        return toolError(err);
      }
    },
  );

  for (const [name, title, description, press] of [
    ['press_back', 'Back', 'Presses the Back button.', (id: string, signal: AbortSignal) => control.pressBack(id, { signal })],
    ['press_home', 'Home', 'Presses the Home button (goes to the launcher).', (id: string, signal: AbortSignal) => control.pressHome(id, { signal })],
  ] as const) {
    server.registerTool(name, { title, description, inputSchema: z.object({ deviceId }), annotations: ACTS }, async (args, ctx) => {
      try {
        const id = await deviceFor(deps, args);
        const outcome = await press(id, ctx.mcpReq.signal);
        return toolResult(`Pressed ${title} on ${id}.`, outcomeFacts(outcome, deps));
      } catch (err) {
        return toolError(err);
      }
    });
  }

  server.registerTool(
    'open_app',
    {
      title: 'Open an app',
      description: 'Opens an app by its Android package name (e.g. com.android.settings) and checks that it came to the foreground.',
      inputSchema: z.object({ deviceId, app: z.string().regex(/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/, 'an Android package name such as com.android.settings').describe('Android package name.') }),
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
        return toolError(err);
      }
    },
  );

  server.registerTool(
    'list_apps',
    {
      title: 'List apps',
      description: 'Lists the apps installed on a phone, where the phone can tell (capability list_apps).',
      inputSchema: z.object({ deviceId }),
      annotations: READ_ONLY,
    },
    async (args) => {
      try {
        return await control.listApps(await deviceFor(deps, args));
      } catch (err) {
        return toolError(err);
      }
    },
  );

  if (deps.session) {
    const session = deps.session;
    server.registerTool(
      'select_device',
      {
        title: 'Select a phone',
        description: 'Makes a phone the default of this session: later calls without deviceId use it.',
        inputSchema: z.object({ deviceId: z.string().min(1).max(128) }),
        annotations: { ...READ_ONLY, idempotentHint: true },
      },
      async (args) => {
        try {
          const device = await phones.getDevice(args.deviceId);
          session.selectedDeviceId = device.deviceId;
          return toolResult(`${device.deviceId} (${device.status}) is now this session's phone.`, { deviceId: device.deviceId, status: device.status });
        } catch (err) {
          return toolError(err);
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
 * Runs a tap or long press; when it is sensitive and not yet approved, asks the user through
 * `input_required` (an elicitation on 2025 sessions) if the client can be asked, else answers
 * `APPROVAL_REQUIRED`. A declined question answers `APPROVAL_DENIED`; nothing is sent to the phone.
 */
async function withApproval(
  deps: PhoneToolDeps,
  ctx: ServerContext,
  approvedArg: boolean | undefined,
  run: (deviceId: string, approved: boolean) => Promise<ActionOutcome>,
  args: PointTarget & { deviceId?: string; frameId?: string },
  verb: string,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    const id = await deviceFor(deps, args);
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
    if (answer.kind === 'elicit' && answer.action !== 'accept') {
      throw new MobileClawError('APPROVAL_DENIED', `the user declined the ${verb}; nothing was sent to ${id}`, { deviceId: id });
    }
    const approval = acceptedContent(ctx.mcpReq.inputResponses, APPROVAL_INPUT, approvalAnswer);
    if (approval && !approval.approve) {
      throw new MobileClawError('APPROVAL_DENIED', `the user declined the ${verb}; nothing was sent to ${id}`, { deviceId: id });
    }
    try {
      const outcome = await run(id, approvedArg === true || approval?.approve === true);
      const on = outcome.element ? ` on [${outcome.element.index}] ${outcome.element.type}${outcome.element.text ? ` ${JSON.stringify(outcome.element.text)}` : ''}` : '';
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
      });
    }
  } catch (err) {
    return toolError(err);
  }
}
