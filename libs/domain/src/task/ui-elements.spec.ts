import type { UiNode } from '../results';
import { toUiElements } from './ui-elements';

let counter = 0;
function n(props: Partial<UiNode> & { bounds: UiNode['bounds'] }, children: UiNode[] = []): UiNode {
  return { id: `v${counter++}`, class: 'android.view.View', text: '', desc: '', enabled: true, ...props, children };
}

describe('toUiElements labelling rules', () => {
  it('labels a tappable row by its descendants’ texts', () => {
    const row = n({ clickable: true, bounds: [0, 0, 100, 50] }, [n({ text: 'Battery', bounds: [0, 0, 50, 25] }), n({ text: '100%', bounds: [0, 25, 50, 50] })]);
    expect(toUiElements([row]).map((e) => [e.nodeId, e.text])).toEqual([[row.id, 'Battery · 100%']]);
  });

  it('does not label a scroll container by its content, so headers stay elements', () => {
    const header = n({ text: 'GENERAL', bounds: [0, 0, 100, 20] });
    const list = n({ scrollable: true, bounds: [0, 0, 100, 200] }, [header]);
    expect(toUiElements([list]).map((e) => [e.nodeId, e.text ?? null])).toEqual([
      [list.id, null],
      [header.id, 'GENERAL'],
    ]);
  });

  it('keeps a content description as the whole label of a tappable node', () => {
    const badge = n({ desc: 'New notifications', bounds: [10, 10, 20, 20] });
    const button = n({ clickable: true, desc: 'Menu', bounds: [0, 0, 40, 40] }, [badge]);
    expect(toUiElements([button]).map((e) => [e.nodeId, e.text ?? null, e.desc])).toEqual([
      [button.id, null, 'Menu'],
      [badge.id, null, 'New notifications'],
    ]);
  });

  it('omits a description equal to the text, and never gives a password field text', () => {
    const label = n({ text: 'English', desc: 'English', bounds: [0, 0, 10, 10] });
    const pin = n({ class: 'android.widget.EditText', editable: true, password: true, text: '1234', desc: 'PIN', bounds: [0, 10, 10, 20] });
    expect(toUiElements([label, pin]).map((e) => [e.text ?? null, e.desc ?? null, e.password ?? false])).toEqual([
      ['English', null, false],
      [null, 'PIN', true],
    ]);
  });
});
