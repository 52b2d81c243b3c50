import { Clock, MobileClawError, type UiNode } from '@mobileclaw/domain';
import { domainRejection } from '@mobileclaw/domain/testing';
import { DeviceControlService } from './device-control.service';
import { DEFAULT_DEVICE_CONTROL_OPTIONS, type DeviceControlOptions } from './device-control.options';
import { FixedSizeImageEncoder } from './testing/fixed-size-image-encoder';
import { ScriptedScreenPhone, type ScriptedDevice } from './testing/scripted-screen-phone';

const SHOP = 'com.example.shop';

/**
 * A 1080×2400 shop screen below the status bar. Its elements, in order: [0] the clock, [1] "Details"
 * (centre 300,500), [2] the focused search field "shoes" (540,900), [3] the product list (540,1500),
 * [4] the row "Red shoes" (540,1200), [5] "Buy now" (540,2100, a sensitive label).
 */
function shopScreen(): UiNode[] {
  return [
    {
      id: 'bar',
      class: 'android.widget.FrameLayout',
      package: 'com.android.systemui',
      bounds: [0, 0, 1080, 80],
      children: [{ id: 'clock', class: 'android.widget.TextView', text: '12:00', package: 'com.android.systemui', bounds: [40, 10, 200, 70] }],
    },
    {
      id: 'root',
      class: 'android.widget.FrameLayout',
      package: SHOP,
      bounds: [0, 80, 1080, 2400],
      children: [
        { id: 'details', class: 'android.widget.Button', text: 'Details', package: SHOP, bounds: [100, 400, 501, 601], clickable: true },
        { id: 'search', class: 'android.widget.EditText', text: 'shoes', package: SHOP, bounds: [0, 800, 1080, 1000], clickable: true, editable: true, focused: true },
        {
          id: 'list',
          class: 'androidx.recyclerview.widget.RecyclerView',
          package: SHOP,
          bounds: [0, 1100, 1080, 1900],
          scrollable: true,
          children: [{ id: 'row', class: 'android.widget.TextView', text: 'Red shoes', package: SHOP, bounds: [0, 1100, 1080, 1300] }],
        },
        { id: 'buy', class: 'android.widget.Button', text: 'Buy now', package: SHOP, bounds: [100, 2000, 980, 2200], clickable: true },
      ],
    },
  ];
}

/** The node with `id` in `nodes` (depth-first), to change the phone's screen in place. */
function node(nodes: UiNode[], id: string): UiNode {
  const found = findNode(nodes, id);
  if (!found) throw new Error(`no node ${id}`);
  return found;
}

function findNode(nodes: UiNode[], id: string): UiNode | undefined {
  for (const n of nodes) {
    const found = n.id === id ? n : findNode(n.children ?? [], id);
    if (found) return found;
  }
  return undefined;
}

class StillClock extends Clock {
  override now(): Date {
    return new Date('2026-07-28T10:00:00.000Z');
  }
}

function setUp(devices?: ScriptedDevice[], options: Partial<DeviceControlOptions> = {}) {
  const phone = new ScriptedScreenPhone(devices);
  phone.nodes = shopScreen();
  const encoder = new FixedSizeImageEncoder({ width: 540, height: 1200 });
  const control = new DeviceControlService(phone, encoder, { ...DEFAULT_DEVICE_CONTROL_OPTIONS, ...options }, new StillClock());
  return { phone, encoder, control };
}

describe('DeviceControlService.resolveDevice', () => {
  it('returns a named phone, online or not', async () => {
    const { control } = setUp([{ deviceId: 'phone-1' }, { deviceId: 'phone-2', status: 'offline' }]);
    expect(await control.resolveDevice('phone-2')).toBe('phone-2');
  });

  it('rejects an unknown named phone with DEVICE_NOT_FOUND', async () => {
    const { control } = setUp();
    const err = await domainRejection(control.resolveDevice('phone-9'));
    expect([err.code, err.message, err.deviceId]).toEqual(['DEVICE_NOT_FOUND', 'no device phone-9', 'phone-9']);
  });

  it('picks the only phone that is not offline (a busy phone counts as online)', async () => {
    const { control } = setUp([{ deviceId: 'phone-1', status: 'offline' }, { deviceId: 'phone-2', status: 'busy' }]);
    expect(await control.resolveDevice()).toBe('phone-2');
  });

  it('answers DEVICE_NOT_FOUND when no phone is online', async () => {
    const { control } = setUp([{ deviceId: 'phone-1', status: 'offline' }]);
    const err = await domainRejection(control.resolveDevice());
    expect(err.code).toBe('DEVICE_NOT_FOUND');
    expect(err.message).toBe('no phone is online: connect a phone (or start the simulator), then try again');
  });

  it('answers DEVICE_AMBIGUOUS listing the online phones when several are online and none is named', async () => {
    const { control } = setUp([{ deviceId: 'phone-1' }, { deviceId: 'phone-2', status: 'offline' }, { deviceId: 'phone-3', status: 'busy' }]);
    const err = await domainRejection(control.resolveDevice());
    expect(err.code).toBe('DEVICE_AMBIGUOUS');
    expect(err.message).toBe('2 phones are online (phone-1, phone-3): name one with deviceId');
  });
});

describe('DeviceControlService.observe', () => {
  it('takes a screenshot and the tree, and remembers them as frame <deviceId>@<n>', async () => {
    const { phone, encoder, control } = setUp();
    const frame = await control.observe('phone-1');
    expect(phone.commandNames()).toEqual(['screenshot', 'ui_tree']);
    expect(phone.calls[0].command).toEqual({ command: 'screenshot', format: 'png' });
    expect(frame.frameId).toBe('phone-1@1');
    expect(frame.deviceId).toBe('phone-1');
    expect(frame.deviceFrameId).toBe('pf-1');
    expect(frame.screen).toEqual({ width: 1080, height: 2400, rotation: 0 });
    expect(frame.foregroundPackage).toBe(SHOP);
    expect(frame.capturedAt).toBe('2026-07-28T10:00:00.000Z');
    expect(frame.image).toEqual({ mime: 'image/jpeg', base64: 'anBlZw==', width: 540, height: 1200, bytes: 4, quality: 80 });
    expect(encoder.calls.map((c) => c.limits)).toEqual([{ maxLongSidePx: 1568, maxBytes: 800 * 1024 }]);
    expect(encoder.calls[0].screenshot.base64).toBe('cG5n');
    expect(control.frame('phone-1@1')).toBe(frame);
  });

  it('lists the indexed elements in device px', async () => {
    const { control } = setUp();
    const frame = await control.observe('phone-1');
    expect(frame.elements.map((e) => [e.index, e.nodeId, e.type, e.text, e.center])).toEqual([
      [0, 'clock', 'TextView', '12:00', [120, 40]],
      [1, 'details', 'Button', 'Details', [300, 500]],
      [2, 'search', 'EditText', 'shoes', [540, 900]],
      [3, 'list', 'RecyclerView', undefined, [540, 1500]],
      [4, 'row', 'TextView', 'Red shoes', [540, 1200]],
      [5, 'buy', 'Button', 'Buy now', [540, 2100]],
    ]);
    expect(frame.elements[2]).toEqual({
      index: 2,
      nodeId: 'search',
      type: 'EditText',
      text: 'shoes',
      label: 'shoes',
      labelSource: 'text',
      bounds: [0, 800, 1080, 1000],
      center: [540, 900],
      clickable: true,
      editable: true,
      focused: true,
    });
  });

  it('numbers frames in one sequence across phones', async () => {
    const { control } = setUp([{ deviceId: 'phone-1' }, { deviceId: 'phone-2' }]);
    expect((await control.observe('phone-1')).frameId).toBe('phone-1@1');
    expect((await control.observe('phone-2')).frameId).toBe('phone-2@2');
    expect((await control.observe('phone-1')).frameId).toBe('phone-1@3');
  });

  it('merges per-call image limits over the configured ones', async () => {
    const { encoder, control } = setUp(undefined, { image: { maxLongSidePx: 1000, maxBytes: 300_000 } });
    await control.observe('phone-1');
    await control.observe('phone-1', { image: { maxLongSidePx: 640 } });
    await control.observe('phone-1', { image: { maxBytes: 50_000 } });
    expect(encoder.calls.map((c) => c.limits)).toEqual([
      { maxLongSidePx: 1000, maxBytes: 300_000 },
      { maxLongSidePx: 640, maxBytes: 300_000 },
      { maxLongSidePx: 1000, maxBytes: 50_000 },
    ]);
  });

  it('sends only ui_tree, with the configured command timeout, when no image is wanted', async () => {
    const { phone, encoder, control } = setUp(undefined, { commandTimeoutMs: 4500 });
    const frame = await control.observe('phone-1', { image: false });
    expect(phone.commandNames()).toEqual(['ui_tree']);
    expect(phone.calls[0].options).toEqual({ timeoutMs: 4500 });
    expect(encoder.calls).toEqual([]);
    expect(frame.image).toBeUndefined();
    expect(frame.elements).toHaveLength(6);
  });

  it('takes the screen from the screenshot when the tree does not report it', async () => {
    const { phone, control } = setUp();
    phone.treeReportsScreen = false;
    phone.screen = { width: 1080, height: 2400, rotation: 2, densityDpi: 420 };
    expect((await control.observe('phone-1')).screen).toEqual({ width: 1080, height: 2400, rotation: 2, densityDpi: 420 });
  });

  it("takes the screen from the screenshot's size when neither reply reports it", async () => {
    const { phone, control } = setUp();
    phone.treeReportsScreen = false;
    phone.screenshotReportsScreen = false;
    expect((await control.observe('phone-1')).screen).toEqual({ width: 1080, height: 2400 });
  });

  it("takes the screen from the device info when there is no screenshot and the tree does not report it", async () => {
    const { phone, control } = setUp([{ deviceId: 'phone-1', screen: { width: 720, height: 1600, rotation: 0 } }]);
    phone.treeReportsScreen = false;
    expect((await control.observe('phone-1', { image: false })).screen).toEqual({ width: 720, height: 1600, rotation: 0 });
  });

  it('fails PROTOCOL_ERROR when no source tells the screen size', async () => {
    const { phone, control } = setUp();
    phone.treeReportsScreen = false;
    const err = await domainRejection(control.observe('phone-1', { image: false }));
    expect([err.code, err.message]).toEqual(['PROTOCOL_ERROR', 'phone-1 did not report its screen size']);
  });

  it('fails PROTOCOL_ERROR on a tree without a node list, and remembers no frame', async () => {
    const { phone, control } = setUp();
    phone.treeData = { frameId: 'pf-1' };
    const err = await domainRejection(control.observe('phone-1'));
    expect([err.code, err.message]).toEqual(['PROTOCOL_ERROR', 'phone-1 answered ui_tree without a node list']);
    phone.treeData = undefined;
    expect((await control.observe('phone-1')).frameId).toBe('phone-1@1');
  });

  it('omits deviceFrameId and foregroundPackage when the phone tells neither', async () => {
    const { phone, control } = setUp();
    phone.deviceFrameId = undefined;
    phone.nodes = [{ id: 'ok', class: 'android.widget.Button', text: 'OK', bounds: [0, 0, 100, 100], clickable: true }];
    const frame = await control.observe('phone-1');
    expect('deviceFrameId' in frame).toBe(false);
    expect('foregroundPackage' in frame).toBe(false);
  });
});

describe('DeviceControlService.tap', () => {
  it("taps an element's centre and sends the phone frame id of the fresh tree", async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    phone.deviceFrameId = 'pf-2';
    const outcome = await control.tap('phone-1', { frameId, element: 1 });
    expect(phone.commandNames()).toEqual(['screenshot', 'ui_tree', 'ui_tree', 'click']);
    expect(phone.actions()).toEqual([{ deviceId: 'phone-1', command: { command: 'click', x: 300, y: 500 }, options: { frameId: 'pf-2' } }]);
    expect(outcome).toEqual({
      deviceId: 'phone-1',
      requestId: 'r4',
      command: 'click',
      point: [300, 500],
      element: expect.objectContaining({ index: 1, text: 'Details' }),
      durationMs: 7,
    });
  });

  it('maps a point of the frame image to device px, per axis, rounded', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    const outcome = await control.tap('phone-1', { frameId, x: 150.3, y: 250.26 });
    // 540×1200 image on a 1080×2400 screen: ×2 on both axes; 300.6 → 301, 500.52 → 501.
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'click', x: 301, y: 501 }]);
    expect(outcome.point).toEqual([301, 501]);
    expect(outcome.element?.nodeId).toBe('details');
  });

  it('reports no element when the mapped point falls on none (right and bottom edges are exclusive)', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    // (250.4, 250) → (501, 500): just right of "Details" [100, 400, 501, 601].
    const outcome = await control.tap('phone-1', { frameId, x: 250.4, y: 250 });
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'click', x: 501, y: 500 }]);
    expect(outcome.element).toBeUndefined();
  });

  it("uses the screen's px for a frame without an image", async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1', { image: false });
    await control.tap('phone-1', { frameId, x: 300, y: 500 });
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'click', x: 300, y: 500 }]);
  });

  it('taps a screen point without a frame, naming the innermost element under it', async () => {
    const { phone, control } = setUp();
    const outcome = await control.tap('phone-1', { x: 540, y: 1200 });
    expect(phone.commandNames()).toEqual(['ui_tree', 'click']);
    expect(phone.actions()).toEqual([{ deviceId: 'phone-1', command: { command: 'click', x: 540, y: 1200 }, options: { frameId: 'pf-1' } }]);
    // Both the list [3] and its row [4] contain the point; the row comes later in document order.
    expect(outcome.element?.nodeId).toBe('row');
  });

  it('rounds a fractional screen point to whole px', async () => {
    const { phone, control } = setUp();
    await control.tap('phone-1', { x: 10.5, y: 2399.4 });
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'click', x: 11, y: 2399 }]);
  });

  it('passes the command timeout and the abort signal to both the tree read and the tap', async () => {
    const { phone, control } = setUp(undefined, { commandTimeoutMs: 2000 });
    const signal = new AbortController().signal;
    await control.tap('phone-1', { x: 1, y: 1 }, { signal });
    expect(phone.calls.map((c) => c.options)).toEqual([
      { timeoutMs: 2000, signal },
      { timeoutMs: 2000, signal, frameId: 'pf-1' },
    ]);
  });

  it('keeps a frame usable when only an element state changed (focus, checked)', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    node(phone.nodes, 'search').focused = false;
    const outcome = await control.tap('phone-1', { frameId, element: 2 });
    expect(outcome.point).toEqual([540, 900]);
  });

  describe('STALE_FRAME, nothing sent', () => {
    it('when the element moved', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      node(phone.nodes, 'details').bounds = [100, 420, 501, 621];
      const err = await domainRejection(control.tap('phone-1', { frameId, element: 1 }));
      expect([err.code, err.deviceId]).toEqual(['STALE_FRAME', 'phone-1']);
      expect(err.message).toBe('element [1] Button "Details" of frame phone-1@1 is no longer on the screen of phone-1: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it('when the element vanished', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      phone.nodes = [];
      const err = await domainRejection(control.tap('phone-1', { frameId, element: 5 }, { approved: true }));
      expect(err.code).toBe('STALE_FRAME');
      expect(err.message).toBe('element [5] Button "Buy now" of frame phone-1@1 is no longer on the screen of phone-1: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it("when the element's text changed", async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      node(phone.nodes, 'search').text = 'boots';
      expect((await domainRejection(control.tap('phone-1', { frameId, element: 2 }))).code).toBe('STALE_FRAME');
      expect(phone.actions()).toEqual([]);
    });

    it('when the element under an image point moved', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      node(phone.nodes, 'details').bounds = [0, 400, 501, 601];
      const err = await domainRejection(control.tap('phone-1', { frameId, x: 150, y: 250 }));
      expect(err.message).toBe('element [1] Button "Details" of frame phone-1@1 is no longer on the screen of phone-1: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it('when something appeared under an image point that was on no element', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      // (270, 350) → (540, 700): empty space between "Details" and the search field in the frame.
      node(phone.nodes, 'root').children!.push({ id: 'pay', class: 'android.widget.Button', text: 'Pay now', package: SHOP, bounds: [0, 600, 1080, 800], clickable: true });
      const err = await domainRejection(control.tap('phone-1', { frameId, x: 270, y: 350 }, { approved: true }));
      expect([err.code, err.deviceId]).toEqual(['STALE_FRAME', 'phone-1']);
      expect(err.message).toBe('the point (540,700) in screen px was on no element in frame phone-1@1; now a Button "Pay now" is there: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it("when another element now covers an image point's element, though that one is still on screen", async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      node(phone.nodes, 'root').children!.push({ id: 'dialog', class: 'android.widget.Button', text: 'Delete all', package: SHOP, bounds: [0, 300, 1080, 700], clickable: true });
      const err = await domainRejection(control.tap('phone-1', { frameId, x: 150, y: 250 }));
      expect(err.message).toBe('the point (300,500) in screen px was on [1] Button "Details" in frame phone-1@1; now a Button "Delete all" is there: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it("when another element now covers an element's centre", async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      node(phone.nodes, 'root').children!.push({ id: 'banner', class: 'android.widget.TextView', desc: 'Ad', package: SHOP, bounds: [0, 450, 1080, 550] });
      const err = await domainRejection(control.tap('phone-1', { frameId, element: 1 }));
      expect(err.message).toBe('the point (300,500) in screen px was on [1] Button "Details" in frame phone-1@1; now a TextView "Ad" is there: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it('when the element under an image point vanished and nothing is there now', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      node(phone.nodes, 'root').children!.shift();
      const err = await domainRejection(control.tap('phone-1', { frameId, x: 150, y: 250 }));
      expect(err.message).toBe('element [1] Button "Details" of frame phone-1@1 is no longer on the screen of phone-1: take a new screen and act on it');
      expect(phone.actions()).toEqual([]);
    });

    it('when the screen rotated', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      phone.screen = { width: 2400, height: 1080, rotation: 1 };
      const err = await domainRejection(control.tap('phone-1', { frameId, element: 1 }));
      expect([err.code, err.deviceId]).toEqual(['STALE_FRAME', 'phone-1']);
      expect(err.message).toBe('frame phone-1@1 was 1080×2400 rotation 0; the screen is now 2400×1080 rotation 1: take a new screen');
      expect(phone.actions()).toEqual([]);
    });

    it('when the screen was resized, also for an image point on no element', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      phone.screen = { width: 720, height: 1600, rotation: 0 };
      const err = await domainRejection(control.tap('phone-1', { frameId, x: 1, y: 1199 }));
      expect(err.message).toBe('frame phone-1@1 was 1080×2400 rotation 0; the screen is now 720×1600 rotation 0: take a new screen');
      expect(phone.actions()).toEqual([]);
    });

    it('when the frame is no longer kept', async () => {
      const { phone, control } = setUp(undefined, { maxFrames: 1 });
      const first = await control.observe('phone-1');
      await control.observe('phone-1');
      const err = await domainRejection(control.tap('phone-1', { frameId: first.frameId, element: 1 }));
      expect([err.code, err.deviceId]).toEqual(['STALE_FRAME', 'phone-1']);
      expect(err.message).toBe('frame phone-1@1 is no longer known (only the 1 most recent frames are kept): take a new screen');
      expect(phone.actions()).toEqual([]);
    });
  });

  describe('VALIDATION_FAILED, nothing sent', () => {
    async function invalid(target: Parameters<DeviceControlService['tap']>[1], deviceId = 'phone-1') {
      const { phone, control } = setUp([{ deviceId: 'phone-1' }, { deviceId: 'phone-2' }]);
      await control.observe('phone-1');
      await control.observe('phone-2');
      const err = await domainRejection(control.tap(deviceId, target));
      expect(phone.actions()).toEqual([]);
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.fieldErrors).toEqual([{ field: expect.any(String), message: err.message }]);
      return { field: err.fieldErrors![0].field, message: err.message };
    }

    it('for an element without frameId', async () => {
      expect(await invalid({ element: 1 })).toEqual({ field: 'frameId', message: 'an element index needs the frameId of the screen that listed it' });
    });

    it('for both an element and a point', async () => {
      expect(await invalid({ frameId: 'phone-1@1', element: 1, x: 1, y: 1 })).toEqual({ field: 'element', message: 'give either element (with frameId) or x and y' });
    });

    it('for neither an element nor a point', async () => {
      expect(await invalid({ frameId: 'phone-1@1' })).toEqual({ field: 'element', message: 'give either element (with frameId) or x and y' });
    });

    it('for x without y, and y without x', async () => {
      expect(await invalid({ x: 1 })).toEqual({ field: 'y', message: 'x and y go together' });
      expect(await invalid({ y: 1 })).toEqual({ field: 'x', message: 'x and y go together' });
    });

    it('for a point outside the frame image', async () => {
      expect(await invalid({ frameId: 'phone-1@1', x: 540, y: 10 })).toEqual({
        field: 'x',
        message: 'point (540, 10) is outside the image (540×1200 px): x must be in [0, 540), y in [0, 1200)',
      });
      expect(await invalid({ frameId: 'phone-1@1', x: 0, y: -1 })).toEqual({
        field: 'y',
        message: 'point (0, -1) is outside the image (540×1200 px): x must be in [0, 540), y in [0, 1200)',
      });
    });

    it('for a point outside the screen', async () => {
      expect(await invalid({ x: 100, y: 2400 })).toEqual({
        field: 'y',
        message: 'point (100, 2400) is outside the screen (1080×2400 px): x must be in [0, 1080), y in [0, 2400)',
      });
      expect(await invalid({ x: Number.NaN, y: 1 })).toEqual({
        field: 'x',
        message: 'point (NaN, 1) is outside the screen (1080×2400 px): x must be in [0, 1080), y in [0, 2400)',
      });
      expect((await invalid({ x: 2000, y: 3000 })).field).toBe('x');
    });

    it('for an element index out of range or not an integer', async () => {
      const message = 'frame phone-1@1 lists elements 0 to 5; there is no element 6';
      expect(await invalid({ frameId: 'phone-1@1', element: 6 })).toEqual({ field: 'element', message });
      expect((await invalid({ frameId: 'phone-1@1', element: -1 })).message).toBe('frame phone-1@1 lists elements 0 to 5; there is no element -1');
      expect((await invalid({ frameId: 'phone-1@1', element: 1.5 })).message).toBe('frame phone-1@1 lists elements 0 to 5; there is no element 1.5');
    });

    it('for an element of a frame that lists none', async () => {
      const { phone, control } = setUp();
      phone.nodes = [];
      const { frameId } = await control.observe('phone-1');
      const err = await domainRejection(control.tap('phone-1', { frameId, element: 0 }));
      expect(err.fieldErrors).toEqual([{ field: 'element', message: 'frame phone-1@1 lists no elements; there is no element 0' }]);
      expect(phone.actions()).toEqual([]);
    });

    it('for a frame of another phone', async () => {
      expect(await invalid({ frameId: 'phone-2@2', element: 1 })).toEqual({ field: 'frameId', message: 'frame phone-2@2 is a screen of phone-2, not of phone-1' });
    });
  });

  describe('sensitive elements', () => {
    it('answers APPROVAL_REQUIRED for a sensitive label, nothing sent', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      const err = await domainRejection(control.tap('phone-1', { frameId, element: 5 }));
      expect([err.code, err.deviceId]).toEqual(['APPROVAL_REQUIRED', 'phone-1']);
      expect(err.message).toBe('"Buy now" looks like a sensitive action (payment, deletion or similar): it runs only once a human approves it');
      expect(phone.actions()).toEqual([]);
    });

    it('also for a screen point on a sensitive element', async () => {
      const { phone, control } = setUp();
      expect((await domainRejection(control.tap('phone-1', { x: 540, y: 2100 }))).code).toBe('APPROVAL_REQUIRED');
      expect(phone.actions()).toEqual([]);
    });

    it('checks the content description too', async () => {
      const { phone, control } = setUp();
      node(phone.nodes, 'details').desc = 'Delete item';
      const err = await domainRejection(control.tap('phone-1', { x: 300, y: 500 }));
      expect(err.message).toBe('"Details Delete item" looks like a sensitive action (payment, deletion or similar): it runs only once a human approves it');
    });

    it('checks what the finger lands on in the current tree, not only the element aimed at', async () => {
      const { phone, control } = setUp();
      // The row "Red shoes" holds a "Remove" button at its centre (540,1200).
      node(phone.nodes, 'row').children = [{ id: 'remove', class: 'android.widget.ImageButton', desc: 'Remove', package: SHOP, bounds: [440, 1150, 640, 1250], clickable: true }];
      const { frameId, elements } = await control.observe('phone-1');
      const row = elements.find((e) => e.text === 'Red shoes')!;
      const err = await domainRejection(control.tap('phone-1', { frameId, element: row.index }));
      expect(err.code).toBe('APPROVAL_REQUIRED');
      expect(err.message).toBe('"Remove" looks like a sensitive action (payment, deletion or similar): it runs only once a human approves it');
      expect(phone.actions()).toEqual([]);
    });

    it('checks the label an icon-only button borrows (its resource id names it), not only its own words', async () => {
      const { phone, control } = setUp();
      node(phone.nodes, 'row').children = [{ id: 'trash', class: 'android.widget.ImageButton', resourceId: 'com.shop:id/delete_item', package: SHOP, bounds: [440, 1150, 640, 1250], clickable: true }];
      const { elements } = await control.observe('phone-1');
      expect(elements.find((e) => e.resourceId === 'com.shop:id/delete_item')?.label).toBe('delete item');
      const err = await domainRejection(control.tap('phone-1', { x: 540, y: 1200 }));
      expect(err.message).toBe('"delete item" looks like a sensitive action (payment, deletion or similar): it runs only once a human approves it');
      expect(phone.actions()).toEqual([]);
    });

    it('taps a point of an old frame on no element when nothing is there now either', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      const outcome = await control.tap('phone-1', { frameId, x: 270, y: 350 });
      expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'click', x: 540, y: 700 }]);
      expect(outcome.element).toBeUndefined();
    });

    it('taps once approved', async () => {
      const { phone, control } = setUp();
      const { frameId } = await control.observe('phone-1');
      const outcome = await control.tap('phone-1', { frameId, element: 5 }, { approved: true });
      expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'click', x: 540, y: 2100 }]);
      expect(outcome.element?.text).toBe('Buy now');
    });
  });
});

describe('DeviceControlService.longPress', () => {
  it('long-presses an element for the given duration', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    const outcome = await control.longPress('phone-1', { frameId, element: 4, durationMs: 800 });
    expect(phone.actions()).toEqual([{ deviceId: 'phone-1', command: { command: 'long_press', x: 540, y: 1200, durationMs: 800 }, options: { frameId: 'pf-1' } }]);
    expect([outcome.command, outcome.point, outcome.element?.text]).toEqual(['long_press', [540, 1200], 'Red shoes']);
  });

  it('fails STALE_FRAME, nothing sent, when a sensitive element appeared under a point that was on none', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    node(phone.nodes, 'root').children!.push({ id: 'del', class: 'android.widget.Button', text: 'Delete', package: SHOP, bounds: [0, 600, 1080, 800], longClickable: true });
    const err = await domainRejection(control.longPress('phone-1', { frameId, x: 270, y: 350 }));
    expect(err.code).toBe('STALE_FRAME');
    expect(phone.actions()).toEqual([]);
  });

  it("leaves the duration to the phone when none is given", async () => {
    const { phone, control } = setUp();
    await control.longPress('phone-1', { x: 5, y: 6 });
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'long_press', x: 5, y: 6 }]);
  });
});

describe('DeviceControlService.swipe', () => {
  it('swipes from one image point to another of a frame, in device px', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    phone.deviceFrameId = 'pf-9';
    const outcome = await control.swipe('phone-1', { frameId, from: { x: 270, y: 1000 }, to: { x: 270.2, y: 200 }, durationMs: 300 });
    expect(phone.actions()).toEqual([{ deviceId: 'phone-1', command: { command: 'swipe', x1: 540, y1: 2000, x2: 540, y2: 400, durationMs: 300 }, options: { frameId: 'pf-9' } }]);
    expect(outcome).toEqual({ deviceId: 'phone-1', requestId: 'r4', command: 'swipe', path: [540, 2000, 540, 400], durationMs: 7 });
  });

  it('swipes between screen points without a frame', async () => {
    const { phone, control } = setUp();
    await control.swipe('phone-1', { from: { x: 10, y: 20 }, to: { x: 1079, y: 2399 } });
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'swipe', x1: 10, y1: 20, x2: 1079, y2: 2399 }]);
  });

  it.each([
    ['up', [540, 1920, 540, 480]],
    ['down', [540, 480, 540, 1920]],
    ['left', [864, 1200, 216, 1200]],
    ['right', [216, 1200, 864, 1200]],
  ] as const)('moves the finger %s across 60 %% of the screen, centred', async (direction, path) => {
    const { phone, control } = setUp();
    const outcome = await control.swipe('phone-1', { direction });
    expect(outcome.path).toEqual(path);
    expect(phone.actions().map((c) => c.command)).toEqual([{ command: 'swipe', x1: path[0], y1: path[1], x2: path[2], y2: path[3] }]);
  });

  it.each([
    ['up', [540, 1740, 540, 1260]],
    ['down', [540, 1260, 540, 1740]],
    ['left', [864, 1500, 216, 1500]],
    ['right', [216, 1500, 864, 1500]],
  ] as const)("moves the finger %s across an element's bounds", async (direction, path) => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    // The list [3] is [0, 1100, 1080, 1900]: centre (540, 1500), 60 % is 648 × 480 px.
    expect((await control.swipe('phone-1', { frameId, element: 3, direction })).path).toEqual(path);
    expect(phone.actions()).toHaveLength(1);
  });

  it('fails STALE_FRAME, nothing sent, when the element to swipe across moved', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    node(phone.nodes, 'list').bounds = [0, 1000, 1080, 1900];
    const err = await domainRejection(control.swipe('phone-1', { frameId, element: 3, direction: 'up' }));
    expect(err.message).toBe('element [3] RecyclerView of frame phone-1@1 is no longer on the screen of phone-1: take a new screen and act on it');
    expect(phone.actions()).toEqual([]);
  });

  it('fails STALE_FRAME, nothing sent, when the screen rotated since the frame', async () => {
    const { phone, control } = setUp();
    const { frameId } = await control.observe('phone-1');
    phone.screen = { width: 1080, height: 2400, rotation: 2 };
    expect((await domainRejection(control.swipe('phone-1', { frameId, direction: 'up' }))).code).toBe('STALE_FRAME');
    expect(phone.actions()).toEqual([]);
  });

  it.each([
    ['neither points nor a direction', {}, 'direction', 'give either from and to, or a direction'],
    ['from without to', { from: { x: 1, y: 1 } }, 'direction', 'give either from and to, or a direction'],
    ['a direction and points', { direction: 'up', from: { x: 1, y: 1 }, to: { x: 2, y: 2 } }, 'direction', 'give either from and to, or a direction'],
    ['an element without a direction', { frameId: 'phone-1@1', element: 3, from: { x: 1, y: 1 }, to: { x: 2, y: 2 } }, 'element', 'an element goes with a direction (the finger moves across it); from and to are points'],
    ['an element without frameId', { direction: 'up', element: 3 }, 'element', 'a swipe across an element needs the frameId of the screen that listed it'],
    ['a point outside the screen', { from: { x: 1, y: 1 }, to: { x: 1080, y: 1 } }, 'to', 'point (1080, 1) is outside the screen (1080×2400 px): x must be in [0, 1080), y in [0, 2400)'],
  ] as const)('fails VALIDATION_FAILED, nothing sent, for %s', async (_, target, field, message) => {
    const { phone, control } = setUp();
    await control.observe('phone-1');
    const err = await domainRejection(control.swipe('phone-1', target));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fieldErrors).toEqual([{ field, message }]);
    expect(phone.actions()).toEqual([]);
  });
});

describe('DeviceControlService.inputText', () => {
  /** A phone whose keyboard types into the search field, the way `transform` says. */
  function typing(transform: (before: string, text: string, clear: boolean) => string) {
    const set = setUp();
    set.phone.onAction = (command) => {
      if (command.command !== 'input') return;
      const field = node(set.phone.nodes, 'search');
      field.text = transform(field.text ?? '', command.text, command.clear === true);
    };
    return set;
  }

  it('appends, and reports that the focused field ends with the text', async () => {
    const { phone, control } = typing((before, text) => before + text);
    const outcome = await control.inputText('phone-1', ' rouges 👟');
    expect(phone.commandNames()).toEqual(['input', 'ui_tree']);
    expect(phone.calls[0].command).toEqual({ command: 'input', text: ' rouges 👟' });
    expect(outcome).toEqual({ deviceId: 'phone-1', requestId: 'r1', command: 'input', durationMs: 7, holdsText: true, fieldText: 'shoes rouges 👟' });
  });

  it('replaces with clear, and reports that the field equals the text', async () => {
    const { phone, control } = typing((_, text) => text);
    const outcome = await control.inputText('phone-1', 'boots', { clear: true });
    expect(phone.calls[0].command).toEqual({ command: 'input', text: 'boots', clear: true });
    expect([outcome.holdsText, outcome.fieldText]).toEqual([true, 'boots']);
  });

  it('reports false with what the field shows when it does not hold the text', async () => {
    const { control } = typing(() => 'bots');
    const outcome = await control.inputText('phone-1', 'boots', { clear: true });
    expect([outcome.holdsText, outcome.fieldText]).toEqual([false, 'bots']);
  });

  it('reports null, and never the text, for a password field', async () => {
    const { phone, control } = typing((before, text) => before + text);
    node(phone.nodes, 'search').password = true;
    const outcome = await control.inputText('phone-1', 'secret');
    expect(outcome.holdsText).toBeNull();
    expect('fieldText' in outcome).toBe(false);
  });

  it('reports false without fieldText when no field has the focus', async () => {
    const { phone, control } = setUp();
    node(phone.nodes, 'search').focused = false;
    const outcome = await control.inputText('phone-1', 'x');
    expect(outcome.holdsText).toBe(false);
    expect('fieldText' in outcome).toBe(false);
  });
});

describe('DeviceControlService.openApp, pressBack, pressHome, listApps', () => {
  it('opens an app and verifies that it came to the foreground', async () => {
    const { phone, control } = setUp();
    phone.onAction = () => {
      phone.nodes = [{ id: 's', class: 'android.widget.FrameLayout', package: 'com.android.settings', bounds: [0, 0, 1080, 2400] }];
    };
    const outcome = await control.openApp('phone-1', 'com.android.settings');
    expect(phone.commandNames()).toEqual(['open', 'ui_tree']);
    expect(phone.calls[0].command).toEqual({ command: 'open', app: 'com.android.settings' });
    expect(outcome).toEqual({ deviceId: 'phone-1', requestId: 'r1', command: 'open', durationMs: 7, verified: true, foregroundPackage: 'com.android.settings' });
  });

  it('reports verified false with the app that is in the foreground instead', async () => {
    const { control } = setUp();
    const outcome = await control.openApp('phone-1', 'com.android.settings');
    expect([outcome.verified, outcome.foregroundPackage]).toEqual([false, SHOP]);
  });

  it.each([
    ['inputText', (control: DeviceControlService) => control.inputText('phone-1', 'x')],
    ['openApp', (control: DeviceControlService) => control.openApp('phone-1', 'com.android.settings')],
  ] as const)('%s fails PROTOCOL_ERROR when the tree read back has no node list', async (_, act) => {
    const { phone, control } = setUp();
    phone.treeData = {};
    const err = await domainRejection(act(control));
    expect([err.code, err.message]).toEqual(['PROTOCOL_ERROR', 'phone-1 answered ui_tree without a node list']);
  });

  it('presses Back and Home', async () => {
    const { phone, control } = setUp();
    expect(await control.pressBack('phone-1')).toEqual({ deviceId: 'phone-1', requestId: 'r1', command: 'back', durationMs: 7 });
    expect(await control.pressHome('phone-1')).toEqual({ deviceId: 'phone-1', requestId: 'r2', command: 'home', durationMs: 7 });
    expect(phone.commandNames()).toEqual(['back', 'home']);
  });

  it('answers NOT_SUPPORTED for listApps, naming what the phone can do', async () => {
    const { control } = setUp([{ deviceId: 'phone-1', capabilities: ['click', 'swipe'] }, { deviceId: 'phone-2' }]);
    const err = await domainRejection(control.listApps('phone-1'));
    expect([err.code, err.deviceId]).toEqual(['NOT_SUPPORTED', 'phone-1']);
    expect(err.message).toBe('phone-1 cannot list its apps (its commands: click, swipe); open an app by its package name instead');
    expect((await domainRejection(control.listApps('phone-2'))).message).toBe(
      'phone-2 cannot list its apps (its commands: none reported); open an app by its package name instead',
    );
  });

  it('passes command errors through unchanged', async () => {
    const { phone, control } = setUp();
    const failure = new MobileClawError('DEVICE_BUSY', 'queue full', { deviceId: 'phone-1' });
    phone.onAction = () => {
      throw failure;
    };
    expect(await domainRejection(control.pressBack('phone-1'))).toBe(failure);
  });
});

describe('DeviceControlService call order per phone', () => {
  it('runs a screen asked for during an action after that action, whole and in arrival order', async () => {
    const { phone, control } = setUp();
    const frame = await control.observe('phone-1', { image: false });
    phone.calls.length = 0;
    const tap = control.tap('phone-1', { frameId: frame.frameId, element: 1 });
    const screen = control.observe('phone-1', { image: false });
    await Promise.all([tap, screen]);
    expect(phone.commandNames()).toEqual(['ui_tree', 'click', 'ui_tree']);
  });

  it('goes on with the next call when one fails, and never orders two phones behind each other', async () => {
    const { phone, control } = setUp([{ deviceId: 'phone-1' }, { deviceId: 'phone-2' }]);
    const refused = control.tap('phone-1', { x: 5 });
    const other = control.pressBack('phone-2');
    const next = control.pressHome('phone-1');
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await Promise.all([other, next]);
    expect(phone.calls.map((c) => `${c.deviceId}:${c.command.command}`)).toEqual(['phone-2:back', 'phone-1:home']);
  });
});
