import { readUiDump } from './ui-dump';
import { UI_DUMP_IDLE_FAILURE, UI_DUMP_NULL_ROOT, uiDumpOutput } from './testing';

describe('readUiDump', () => {
  it('keeps the XML and drops the trailer', () => {
    const output = uiDumpOutput();
    const read = readUiDump(output);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.xml.startsWith("<?xml version='1.0'")).toBe(true);
    expect(read.xml.endsWith('</hierarchy>')).toBe(true);
    expect(output.endsWith('UI hierchary dumped to: /dev/tty\n')).toBe(true);
  });

  it('drops warnings printed before the XML', () => {
    const read = readUiDump(`WARNING: linker: libdvm.so has text relocations.\n${uiDumpOutput()}`);
    expect(read.ok && read.xml.startsWith('<?xml')).toBe(true);
  });

  it('calls the known transient failures, empty and cut-off output retryable, and others not', () => {
    expect(readUiDump(UI_DUMP_IDLE_FAILURE)).toEqual({ ok: false, retryable: true, reason: 'ERROR: could not get idle state.' });
    expect(readUiDump(UI_DUMP_NULL_ROOT)).toEqual({ ok: false, retryable: true, reason: 'ERROR: null root node returned by UiTestAutomationBridge.' });
    expect(readUiDump('')).toEqual({ ok: false, retryable: true, reason: 'uiautomator printed nothing' });
    expect(readUiDump(uiDumpOutput().slice(0, 500))).toEqual({ ok: false, retryable: true, reason: 'the dump was cut off before </hierarchy>' });
    expect(readUiDump('/system/bin/sh: uiautomator: not found\n')).toEqual({ ok: false, retryable: false, reason: '/system/bin/sh: uiautomator: not found' });
  });
});
