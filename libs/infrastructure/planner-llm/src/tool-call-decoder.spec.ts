import { CoordinateSpace, RESERVED_TOOL_NAMES, toUiElements, type UiNode } from '@mobileclaw/domain';
import { PLANNER_TOOLS, PLANNER_TOOL_NAMES } from './planner-tools';
import { ToolCallError, decodeToolCall, directionSwipe, type ToolCallScope } from './tool-call-decoder';

const screen = { width: 1080, height: 2400 };
const nodes: UiNode[] = [
  {
    id: '0',
    class: 'android.widget.FrameLayout',
    bounds: [0, 0, 1080, 2400],
    children: [
      { id: '1', class: 'android.widget.EditText', text: 'Search', editable: true, clickable: true, bounds: [40, 200, 1040, 320] },
      { id: '2', class: 'android.widget.EditText', text: '', editable: true, focused: true, clickable: true, bounds: [40, 360, 1040, 480] },
      { id: '3', class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, bounds: [0, 600, 1080, 2200] },
      { id: '4', class: 'android.widget.Button', text: 'Pay', clickable: true, bounds: [100, 2250, 500, 2350] },
    ],
  },
];
const elements = toUiElements(nodes);
const onScreen: ToolCallScope = { elements, space: CoordinateSpace.ofScreen(screen) };
const inImage: ToolCallScope = { elements, space: CoordinateSpace.ofImage({ width: 576, height: 1280 }, screen) };

const decode = (name: string, args: unknown, scope = onScreen) =>
  decodeToolCall(name, typeof args === 'string' ? args : JSON.stringify(args), scope);

const rejects = (name: string, args: unknown, message: string, scope = onScreen) => {
  expect(() => decode(name, args, scope)).toThrow(ToolCallError);
  expect(() => decode(name, args, scope)).toThrow(message);
};

describe('PLANNER_TOOLS', () => {
  it('declares one function per tool name, each requiring reasoning', () => {
    expect(PLANNER_TOOLS.map((t) => t.function.name)).toEqual([...PLANNER_TOOL_NAMES]);
    for (const t of PLANNER_TOOLS) {
      expect(t.type).toBe('function');
      expect((t.function.parameters as { required: string[] }).required[0]).toBe('reasoning');
    }
  });
});

describe('decodeToolCall', () => {
  it('fixture: the element list has the expected indexes', () => {
    expect(elements.map((e) => [e.index, e.type, e.center])).toEqual([
      [0, 'EditText', [540, 260]],
      [1, 'EditText', [540, 420]],
      [2, 'RecyclerView', [540, 1400]],
      [3, 'Button', [300, 2300]],
    ]);
  });

  it('taps an element at its centre and records its index', () => {
    expect(decode('tap', { element_index: 3, reasoning: 'Pay button' })).toEqual({
      type: 'action',
      action: { command: 'click', x: 300, y: 2300 },
      reasoning: 'Pay button',
      elementIndex: 3,
    });
  });

  it('prefers element_index over coordinates given with it', () => {
    expect(decode('tap', { element_index: 0, x: 5, y: 5, reasoning: 'r' }, inImage)).toMatchObject({
      action: { command: 'click', x: 540, y: 260 },
      elementIndex: 0,
    });
  });

  it('maps tap coordinates from the image to device px', () => {
    const decision = decode('tap', { x: 101, y: 333, reasoning: 'icon' }, inImage);
    expect(decision).toEqual({ type: 'action', action: { command: 'click', x: 189, y: 624 }, reasoning: 'icon' });
  });

  it('checks coordinates against the model space', () => {
    rejects('tap', { x: 576, y: 10, reasoning: 'r' }, 'x: must be an integer from 0 to 575 (px), got 576', inImage);
    rejects('tap', { x: 10.5, y: 10, reasoning: 'r' }, 'x: must be an integer from 0 to 575 (px), got 10.5', inImage);
    rejects('tap', { x: '10', y: 10, reasoning: 'r' }, 'x: must be an integer from 0 to 1079 (px), got "10"');
    rejects('tap', { x: 10, reasoning: 'r' }, 'x, y: give both or neither');
    rejects('tap', { reasoning: 'r' }, 'give element_index, or x and y');
  });

  it('long-presses with an optional duration', () => {
    expect(decode('long_press', { element_index: 2, duration_ms: 800, reasoning: 'r' })).toMatchObject({
      action: { command: 'long_press', x: 540, y: 1400, durationMs: 800 },
      elementIndex: 2,
    });
    expect(decode('long_press', { x: 10, y: 20, reasoning: 'r' })).toMatchObject({ action: { command: 'long_press', x: 10, y: 20 } });
    rejects('long_press', { x: 10, y: 20, duration_ms: 0, reasoning: 'r' }, 'duration_ms: must be an integer from 1 to 10000 (ms), got 0');
  });

  it('swipes by direction inside an element or on the whole screen', () => {
    // RecyclerView [0,600,1080,2200]: height 1600, from 75% (1800) to 25% (1000) for "up".
    expect(decode('swipe', { direction: 'up', element_index: 2, reasoning: 'more' })).toEqual({
      type: 'action',
      action: { command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 1000 },
      reasoning: 'more',
      elementIndex: 2,
    });
    expect(decode('swipe', { direction: 'left', reasoning: 'r', duration_ms: 300 })).toMatchObject({
      action: { command: 'swipe', x1: 810, y1: 1200, x2: 270, y2: 1200, durationMs: 300 },
    });
    expect(directionSwipe('down', [0, 0, 1080, 2400])).toEqual({ x1: 540, y1: 600, x2: 540, y2: 1800 });
    expect(directionSwipe('right', [0, 0, 1080, 2400])).toEqual({ x1: 270, y1: 1200, x2: 810, y2: 1200 });
    rejects('swipe', { direction: 'north', reasoning: 'r' }, 'direction: must be one of up, down, left, right, got "north"');
  });

  it('swipes between two points given in the image', () => {
    expect(decode('swipe', { x1: 288, y1: 1000, x2: 288, y2: 200, reasoning: 'r' }, inImage)).toMatchObject({
      action: { command: 'swipe', x1: 540, y1: 1875, x2: 540, y2: 375 },
    });
    rejects('swipe', { x1: 1, y1: 2, reasoning: 'r' }, 'give direction, or x1, y1, x2 and y2');
  });

  it('types into the focused field only, one action per call', () => {
    expect(decode('type_text', { text: 'Hello 世界 👋', element_index: 1, clear: true, reasoning: 'r' })).toEqual({
      type: 'action',
      action: { command: 'input', text: 'Hello 世界 👋', clear: true },
      reasoning: 'r',
      elementIndex: 1,
    });
    expect(decode('type_text', { text: 'abc', reasoning: 'r' })).toEqual({
      type: 'action',
      action: { command: 'input', text: 'abc' },
      reasoning: 'r',
    });
    rejects('type_text', { text: 'abc', element_index: 0, reasoning: 'r' }, 'element [0] is not focused; call tap on it');
    rejects('type_text', { text: 'abc', element_index: 3, reasoning: 'r' }, 'element [3] is not an input field');
    rejects('type_text', { text: '', reasoning: 'r' }, 'text: must not be empty (set clear: true to empty a field)');
    expect(decode('type_text', { text: '', clear: true, reasoning: 'r' })).toMatchObject({ action: { command: 'input', text: '', clear: true } });
    rejects('type_text', { reasoning: 'r' }, 'text: required string is missing');
  });

  it('opens an app by package name', () => {
    expect(decode('open_app', { package: 'com.android.settings', reasoning: 'r' })).toEqual({
      type: 'action',
      action: { command: 'open', app: 'com.android.settings' },
      reasoning: 'r',
    });
    rejects('open_app', { package: 'Settings', reasoning: 'r' }, 'package: must be an Android package name');
  });

  it('presses back and home', () => {
    expect(decode('back', { reasoning: 'r' })).toEqual({ type: 'action', action: { command: 'back' }, reasoning: 'r' });
    expect(decode('home', { reasoning: 'r' })).toEqual({ type: 'action', action: { command: 'home' }, reasoning: 'r' });
  });

  it('carries an approval request', () => {
    expect(
      decode('tap', { element_index: 3, reasoning: 'r', needs_approval: true, approval_reason: 'Pays 12.50 EUR to Shop' }),
    ).toMatchObject({ elementIndex: 3, approval: { reason: 'Pays 12.50 EUR to Shop' } });
    expect(decode('tap', { element_index: 3, reasoning: 'r', needs_approval: false })).not.toHaveProperty('approval');
    rejects('tap', { element_index: 3, reasoning: 'r', needs_approval: true }, 'approval_reason: required when needs_approval is true');
    rejects('tap', { element_index: 3, reasoning: 'r', needs_approval: 'yes' }, 'needs_approval: must be true or false, got "yes"');
  });

  it('ends with done or fail', () => {
    expect(decode('done', { summary: 'Wi-Fi is on', reasoning: 'switch checked' })).toEqual({
      type: 'done',
      summary: 'Wi-Fi is on',
      reasoning: 'switch checked',
    });
    expect(decode('fail', { reason: 'No such app', reasoning: 'r' })).toEqual({ type: 'fail', reason: 'No such app', reasoning: 'r' });
    rejects('done', { reasoning: 'r' }, 'summary: required string is missing');
  });

  it('rejects unknown tools, bad JSON, non-objects, unknown elements and missing reasoning', () => {
    rejects('click', { reasoning: 'r' }, 'unknown tool "click"; use one of tap, long_press');
    rejects('tap', '{"element_index": 1,', 'arguments are not valid JSON');
    rejects('tap', '[1,2]', 'arguments must be a JSON object, got [1,2]');
    rejects('tap', { element_index: 9, reasoning: 'r' }, 'element_index: 9 is not the index of a listed element (listed: 0 to 3)');
    rejects('tap', { element_index: '1', reasoning: 'r' }, 'element_index: "1" is not the index of a listed element');
    rejects('tap', { element_index: 1 }, 'reasoning: required string is missing');
    rejects('tap', { element_index: 1, reasoning: '  ' }, 'reasoning: must not be empty');
    rejects('tap', { element_index: 0, reasoning: 'r' }, 'no elements are listed', { ...onScreen, elements: [] });
  });
});

describe('reserved tool names', () => {
  it('the domain reserves every function name of the phone\'s tools, so no caller tool can take one', () => {
    for (const name of PLANNER_TOOL_NAMES) expect(RESERVED_TOOL_NAMES).toContain(name);
  });
});
