import { compactLabel } from './goal-text';

/** A setting with an on/off switch and where it lives in the Settings app. */
export interface KnownSetting {
  /** Display name, e.g. `Wi-Fi`. */
  label: string;
  /** Labels the switch or its row may carry (English and Chinese, several Android versions). */
  aliases: readonly string[];
  /**
   * Rows that lead towards the switch from the Settings top screen, any of which may be visible on a
   * given phone (AOSP 10–14, Samsung One UI, Chinese system languages).
   */
  path: readonly string[];
}

/** Where common settings live. */
export const KNOWN_SETTINGS: readonly KnownSetting[] = [
  {
    label: 'Wi-Fi',
    aliases: ['Wi-Fi', 'WiFi', 'Wi Fi', 'WLAN', 'Use Wi-Fi', '使用 WLAN', '无线网络', '无线局域网', '无线网'],
    path: ['Network & internet', 'Connections', 'Internet', 'Network and internet', '网络和互联网', '网络与互联网', '连接', '互联网'],
  },
  {
    label: 'Bluetooth',
    aliases: ['Bluetooth', 'Use Bluetooth', '蓝牙', '使用蓝牙'],
    path: ['Connected devices', 'Connections', 'Connection preferences', '已连接的设备', '连接', '连接偏好设置'],
  },
  {
    label: 'Airplane mode',
    aliases: ['Airplane mode', 'Aeroplane mode', 'Flight mode', '飞行模式'],
    path: ['Network & internet', 'Connections', '网络和互联网', '连接'],
  },
  {
    label: 'Mobile data',
    aliases: ['Mobile data', 'Cellular data', '移动数据', '数据流量'],
    path: ['Network & internet', 'Connections', 'Mobile network', 'Internet', '网络和互联网', '连接', '移动网络'],
  },
  {
    label: 'Hotspot',
    aliases: ['Hotspot', 'Wi-Fi hotspot', 'Use Wi-Fi hotspot', 'Mobile hotspot', '热点', 'WLAN 热点', '个人热点'],
    path: ['Network & internet', 'Connections', 'Hotspot & tethering', 'Mobile Hotspot and Tethering', '网络和互联网', '连接', '热点和网络共享'],
  },
  { label: 'Data Saver', aliases: ['Data Saver', 'Use Data Saver', '流量节省程序', '使用流量节省程序', '省流量'], path: ['Network & internet', '网络和互联网'] },
  { label: 'NFC', aliases: ['NFC', 'Use NFC'], path: ['Connected devices', 'Connections', 'Connection preferences', '已连接的设备', '连接', '连接偏好设置'] },
  { label: 'Location', aliases: ['Location', 'Use location', '位置信息', '使用位置信息', '定位', '位置'], path: ['Location', 'Privacy', '位置信息'] },
  { label: 'Dark theme', aliases: ['Dark theme', 'Dark mode', '深色主题', '深色模式', '暗色主题'], path: ['Display', '显示'] },
  { label: 'Do Not Disturb', aliases: ['Do Not Disturb', 'Use Do Not Disturb', '勿扰模式', '免打扰', '勿扰'], path: ['Sound', 'Notifications', '声音', '通知'] },
];

/** The known setting called `name` (any alias; "开关"/"switch"/"setting" suffixes ignored), if any. */
export function findKnownSetting(name: string): KnownSetting | undefined {
  const key = compactLabel(name.replace(/\s*(switch|toggle|setting|开关|功能)$/i, ''));
  if (key === '') return undefined;
  return KNOWN_SETTINGS.find((s) => s.aliases.some((alias) => compactLabel(alias) === key));
}
