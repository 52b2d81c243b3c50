import { equivalentLabels } from './ui-glossary';

describe('equivalentLabels', () => {
  it('gives the other language and the variants of a known term, the asked label first', () => {
    expect(equivalentLabels('蓝牙')).toEqual(['蓝牙', 'Bluetooth']);
    expect(equivalentLabels('wifi')).toEqual(['wifi', 'WLAN', '无线局域网', '无线网络']);
  });

  it('gives only the label itself for an unknown one', () => {
    expect(equivalentLabels('Frobnicate')).toEqual(['Frobnicate']);
  });
});
