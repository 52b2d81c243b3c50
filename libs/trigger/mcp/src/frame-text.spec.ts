import { CoordinateSpace, type UiElement } from '@mobileclaw/domain';
import type { ScreenFrame } from '@mobileclaw/case-device-control';
import { describeFrame, formatElement, frameSpace } from './frame-text';

const SWITCH: UiElement = {
  index: 3,
  nodeId: 'n7',
  type: 'Switch',
  text: 'Wi-Fi',
  desc: 'Wireless',
  resourceId: 'android:id/switch_widget',
  bounds: [848, 200, 1037, 287],
  center: [942, 243],
  clickable: true,
  checkable: true,
  checked: true,
};

const FIELD: UiElement = {
  index: 4,
  nodeId: 'n8',
  type: 'EditText',
  label: 'Password',
  labelSource: 'preceding',
  bounds: [0, 800, 1080, 1000],
  center: [540, 900],
  editable: true,
  password: true,
  focused: true,
};

function frame(withImage: boolean): ScreenFrame {
  return {
    frameId: 'sim-1@7',
    deviceId: 'sim-1',
    screen: { width: 1080, height: 2400, rotation: 0 },
    ...(withImage ? { image: { mime: 'image/jpeg' as const, base64: '', width: 540, height: 1200, bytes: 48_000, quality: 80 } } : {}),
    elements: [SWITCH, FIELD],
    foregroundPackage: 'com.android.settings',
    capturedAt: '2026-07-28T10:00:00.000Z',
  };
}

describe('frame text', () => {
  it("reads a frame in its image's px, or the screen's without an image", () => {
    expect(frameSpace(frame(true)).size).toEqual({ width: 540, height: 1200 });
    expect(frameSpace(frame(false)).isScreen).toBe(true);
  });

  it('formats an element with its centre and bounds in the image px (each edge rounded)', () => {
    const space = CoordinateSpace.ofImage({ width: 540, height: 1200 }, { width: 1080, height: 2400 });
    expect(formatElement(SWITCH, space)).toBe(
      '[3] Switch "Wi-Fi" desc="Wireless" id=android:id/switch_widget clickable checked center=(471,122) bounds=(424,100,519,144)',
    );
  });

  it('formats every flag, and never a text for a password field', () => {
    const all: UiElement = {
      index: 0,
      nodeId: 'n0',
      type: 'View',
      bounds: [0, 0, 10, 10],
      center: [5, 5],
      clickable: true,
      longClickable: true,
      editable: true,
      checkable: true,
      checked: false,
      scrollable: true,
      focused: true,
      selected: true,
      enabled: false,
    };
    const screen = CoordinateSpace.ofScreen({ width: 1080, height: 2400 });
    expect(formatElement(all, screen)).toBe('[0] View clickable long-clickable editable unchecked scrollable focused selected disabled center=(5,5) bounds=(0,0,10,10)');
    expect(formatElement(FIELD, screen)).toBe('[4] EditText editable password focused label="Password" (preceding) center=(540,900) bounds=(0,800,1080,1000)');
  });

  it("shows a label found around the element, with its source, but not one that repeats the element's own text", () => {
    const screen = CoordinateSpace.ofScreen({ width: 1080, height: 2400 });
    const airplane: UiElement = { ...SWITCH, text: 'OFF', label: 'Airplane mode', labelSource: 'row', checked: false, clickable: false };
    delete airplane.desc;
    expect(formatElement(airplane, screen)).toBe(
      '[3] Switch "OFF" id=android:id/switch_widget unchecked label="Airplane mode" (row) center=(942,243) bounds=(848,200,1037,287)',
    );
    expect(formatElement({ ...SWITCH, label: 'Wi-Fi', labelSource: 'text' }, screen)).toBe(formatElement(SWITCH, screen));
  });

  it('describes a frame with an image: its id, phone, app, image size and the elements in image px', () => {
    expect(describeFrame(frame(true))).toBe(
      [
        'frameId: sim-1@7',
        'device: sim-1; screen 1080×2400 px; foreground app com.android.settings',
        'image: 540×1200 px JPEG; coordinates below and in tap/long_press/swipe with this frameId are in the image\'s px',
        'elements (2; act on one with {frameId, element}):',
        '[3] Switch "Wi-Fi" desc="Wireless" id=android:id/switch_widget clickable checked center=(471,122) bounds=(424,100,519,144)',
        '[4] EditText editable password focused label="Password" (preceding) center=(270,450) bounds=(0,400,540,500)',
      ].join('\n'),
    );
  });

  it('describes a frame without an image in screen px, and without an app when none is known', () => {
    const bare = { ...frame(false), foregroundPackage: undefined, elements: [FIELD] };
    expect(describeFrame(bare)).toBe(
      [
        'frameId: sim-1@7',
        'device: sim-1; screen 1080×2400 px',
        'coordinates below are screen px',
        'elements (1; act on one with {frameId, element}):',
        '[4] EditText editable password focused label="Password" (preceding) center=(540,900) bounds=(0,800,1080,1000)',
      ].join('\n'),
    );
  });
});
