import { compactLabel } from './goal-text';

/**
 * One concept of the Android UI in both languages the planner reads: every term of an entry names
 * the same thing (a screen, an app, a setting or a button), so a goal in English finds a label in
 * Chinese and the reverse. Terms are compared with {@link compactLabel}.
 */
export interface GlossaryEntry {
  /** English terms, the usual one first (AOSP wording, then vendors' and users' variants). */
  en: readonly string[];
  /** Simplified Chinese terms, the usual one first. */
  zh: readonly string[];
}

/*
 * How the entries are written.
 *
 * - Wording is what phones show: AOSP (Android 10–14) English and Simplified Chinese first, then the
 *   vendor names of the same screen or button (Samsung One UI, Xiaomi MIUI/HyperOS, Huawei/Honor
 *   EMUI, OPPO ColorOS), then what users type. A Latin name the Chinese UI keeps as is (VPN, NFC)
 *   is listed in both languages.
 * - An entry groups only names of ONE thing. `equivalentLabels` joins every entry a term is in, so a
 *   term that names two things would make them equal. Such a term is either left out, or kept only
 *   in the entry where it is the phone's own label; each case is noted where it applies. The few
 *   terms kept in two entries on purpose are listed in `SHARED_GLOSSARY_TERMS`.
 * - Left out on purpose (ambiguous as a label):
 *   - 设置 as "Set" (it is the Settings app); 应用 as "Apply" (it is Apps); 显示 as "Show" (Display);
 *     信息 as "Info" (Messages on Samsung/Huawei/Google); 主题 as "Subject" (Themes);
 *     标题/职位 "Title"; 复制 as "Duplicate"; 退出 as "Eject"; 放大 as "Zoom in".
 *   - 关闭 as "Off"/"Turn off": as a label it is the Close button, so it is only there; switch
 *     states (On/Off, 开启/关闭) are read from the switch, not from this glossary.
 *   - 打开 as "Turn on": as a label it is the Open button, so it is only there.
 *   - 暂停 as "Snooze" (AOSP DeskClock): it is Pause.
 *   - 连接 as Samsung's "Connections" page: it is the Connect button.
 *   - 键盘 as Samsung's dialer "Keypad" tab: it is Keyboard.
 *   - 相册: the Gallery app on Samsung/Xiaomi and Google Photos, but also a photo album, while a
 *     music "Albums" tab is 专辑; "Albums" is left out and 相册 is only the gallery app.
 *   - 常用联系人: AOSP uses it for both "Favorites" (Contacts) and "Frequents"; left out.
 *   - "Home": an app's home tab (首页) is the entry; the launcher's Home (主屏幕) is "Home screen".
 *   - "Forward": a message's Forward (转发) is the entry; the browser's is "Go forward" (前进).
 *   - "Recents": the dialer tab (call history); the launcher's recent apps are "Recent apps".
 *   - Single letters and characters that stand for several words: M/T/W and 一/二/三/日 on alarm
    day buttons (日 is also "day"), 时 and 分 (hour or o'clock, minute or point).
 */

/** System and vendor app names (launcher labels). */
const APPS: readonly GlossaryEntry[] = [
  { en: ['Settings'], zh: ['设置'] },
  { en: ['Clock'], zh: ['时钟'] },
  { en: ['Camera'], zh: ['相机', '照相机', '摄像头'] },
  // Gallery (AOSP, Huawei 图库; Samsung, Xiaomi 相册) and Google Photos (相册) are the same role.
  { en: ['Gallery', 'Photos', 'Google Photos'], zh: ['图库', '相册', 'Google 相册'] },
  { en: ['Phone', 'Dialer'], zh: ['电话'] },
  { en: ['Contacts'], zh: ['通讯录', '联系人'] },
  { en: ['Messages', 'Messaging', 'SMS'], zh: ['信息', '短信', '消息'] },
  { en: ['Calendar'], zh: ['日历'] },
  { en: ['Calculator'], zh: ['计算器'] },
  { en: ['Files', 'File manager', 'My Files', 'Files by Google'], zh: ['文件', '文件管理', '文件管理器', '我的文件'] },
  { en: ['Browser'], zh: ['浏览器'] },
  { en: ['Chrome', 'Google Chrome'], zh: ['Chrome', 'Chrome 浏览器', '谷歌浏览器'] },
  { en: ['Maps', 'Map', 'Google Maps'], zh: ['地图', 'Google 地图', '谷歌地图'] },
  { en: ['Play Store', 'Google Play Store', 'Google Play'], zh: ['Play 商店', 'Google Play 商店', 'Google Play'] },
  // Vendor stores: Xiaomi GetApps and vivo 应用商店, Huawei AppGallery 应用市场, OPPO 软件商店.
  { en: ['App Store', 'AppGallery', 'GetApps', 'App Market'], zh: ['应用商店', '应用市场', '软件商店'] },
  { en: ['Email', 'Mail'], zh: ['电子邮件', '邮件', '邮箱'] },
  { en: ['Gmail'], zh: ['Gmail'] },
  { en: ['Music', 'Music player'], zh: ['音乐', '音乐播放器'] },
  // 备注 (a contact's "Notes" field) is the entry "Note", not the app.
  { en: ['Notes', 'Notepad', 'Memo', 'Samsung Notes'], zh: ['笔记', '备忘录', '便签', '三星笔记'] },
  { en: ['Weather'], zh: ['天气'] },
  { en: ['Recorder', 'Voice Recorder', 'Sound Recorder'], zh: ['录音机'] },
  { en: ['Downloads', 'Download'], zh: ['下载', '下载内容'] },
  { en: ['YouTube'], zh: ['YouTube', '油管'] },
  { en: ['Google Assistant', 'Assistant'], zh: ['Google 助理', '助理'] },
  { en: ['Google'], zh: ['Google', '谷歌'] },
  { en: ['Keep notes', 'Google Keep'], zh: ['Keep 记事', 'Google Keep'] },
  { en: ['Drive', 'Google Drive'], zh: ['云端硬盘', 'Google 云端硬盘'] },
  { en: ['Translate', 'Google Translate'], zh: ['翻译', 'Google 翻译'] },
  { en: ['Flashlight', 'Torch'], zh: ['手电筒'] },
  { en: ['Compass'], zh: ['指南针'] },
  { en: ['Video player'], zh: ['视频播放器'] },
  { en: ['Themes', 'Theme', 'Theme Store'], zh: ['主题', '主题商店'] },
  { en: ['Phone Manager', 'Optimizer', 'Security app'], zh: ['手机管家', '安全中心'] },
  { en: ['Health', 'Samsung Health'], zh: ['健康', '运动健康', '三星健康'] },
  { en: ['Wallet', 'Google Wallet'], zh: ['钱包', 'Google 钱包'] },
  { en: ['Radio', 'FM radio'], zh: ['收音机', 'FM 收音机'] },
  { en: ['Magnifier'], zh: ['放大镜'] },
  { en: ['Scanner', 'Scan QR code'], zh: ['扫一扫', '扫描二维码'] },
];

/** Settings: the top-level pages (AOSP, then vendor names of the same page). */
const SETTINGS_PAGES: readonly GlossaryEntry[] = [
  { en: ['Network & internet', 'Network and internet'], zh: ['网络和互联网'] },
  { en: ['Wireless & networks'], zh: ['无线和网络'] },
  { en: ['Connected devices'], zh: ['已连接的设备'] },
  // Xiaomi MIUI/HyperOS and OPPO ColorOS.
  { en: ['Connection & sharing', 'Connection and sharing'], zh: ['连接与共享'] },
  // Huawei EMUI / HarmonyOS.
  { en: ['More connections'], zh: ['更多连接'] },
  { en: ['Device connectivity'], zh: ['设备连接'] },
  { en: ['Apps', 'Applications', 'App'], zh: ['应用', '应用程序'] },
  // Xiaomi "Manage apps", OPPO "App management".
  { en: ['Manage apps', 'App management'], zh: ['应用管理', '管理应用'] },
  { en: ['Apps & notifications', 'Apps and notifications'], zh: ['应用和通知'] },
  { en: ['Apps & services'], zh: ['应用和服务'] },
  { en: ['Notifications', 'Notification'], zh: ['通知'] },
  // Xiaomi, OPPO.
  { en: ['Notifications & Control center'], zh: ['通知与控制中心'] },
  { en: ['Notifications & status bar', 'Notification & status bar'], zh: ['通知与状态栏'] },
  { en: ['Battery'], zh: ['电池'] },
  { en: ['Battery & performance'], zh: ['电池与性能'] },
  { en: ['Storage'], zh: ['存储', '存储空间'] },
  // AOSP 12+ "Sound & vibration" is 提示音和振动; Samsung, Huawei, Xiaomi say 声音和振动 / 声音与振动.
  { en: ['Sound & vibration', 'Sound and vibration', 'Sounds and vibration', 'Sounds & vibration'], zh: ['提示音和振动', '声音和振动', '声音与振动'] },
  { en: ['Sound', 'Sounds'], zh: ['声音', '提示音'] },
  { en: ['Display', 'Display & brightness', 'Display and brightness'], zh: ['显示', '显示和亮度', '显示与亮度'] },
  { en: ['Wallpaper & style', 'Wallpaper and style', 'Wallpapers & style'], zh: ['壁纸和样式', '壁纸与个性化'] },
  { en: ['Wallpaper', 'Wallpapers'], zh: ['壁纸'] },
  // Huawei.
  { en: ['Home screen & wallpaper'], zh: ['桌面和壁纸'] },
  // Samsung and Huawei call it 辅助功能; AOSP titles the page 无障碍 (无障碍功能 in older apps).
  { en: ['Accessibility', 'Accessibility features'], zh: ['无障碍', '无障碍功能', '辅助功能'] },
  { en: ['Security'], zh: ['安全'] },
  { en: ['Security & privacy', 'Security and privacy'], zh: ['安全和隐私', '安全与隐私'] },
  // Samsung.
  { en: ['Biometrics and security'], zh: ['生物识别和安全性'] },
  // Huawei.
  { en: ['Biometrics & password'], zh: ['生物识别和密码'] },
  // Xiaomi, OPPO.
  { en: ['Passwords & security', 'Password & security'], zh: ['密码与安全'] },
  { en: ['Privacy'], zh: ['隐私'] },
  // Xiaomi.
  { en: ['Privacy protection'], zh: ['隐私保护'] },
  // Etar's event "Location" is 地点.
  { en: ['Location'], zh: ['位置信息', '位置', '定位', '地点'] },
  { en: ['Accounts', 'Account'], zh: ['帐号', '账号', '账户', '帐户'] },
  { en: ['Passwords & accounts', 'Passwords and accounts'], zh: ['密码和帐号', '密码和账号'] },
  { en: ['Passwords, passkeys & accounts'], zh: ['密码、通行密钥和帐号'] },
  // AOSP 8 and Huawei.
  { en: ['Users & accounts'], zh: ['用户和帐号', '用户和帐户', '用户和账户'] },
  // Samsung.
  { en: ['Accounts and backup', 'Accounts & backup'], zh: ['账户与备份', '帐户与备份'] },
  // Xiaomi.
  { en: ['Accounts & sync'], zh: ['帐号与同步', '账号与同步'] },
  { en: ['Digital Wellbeing & parental controls'], zh: ['数字健康与家长控制', '数字健康和家长控制'] },
  { en: ['Digital Wellbeing'], zh: ['数字健康'] },
  // Huawei.
  { en: ['Digital balance'], zh: ['健康使用手机'] },
  { en: ['System'], zh: ['系统'] },
  // Huawei.
  { en: ['System & updates'], zh: ['系统和更新'] },
  // Samsung.
  { en: ['General management'], zh: ['常规管理'] },
  // Xiaomi 更多设置, OPPO 其他设置; AOSP permission screens' "More settings" is 更多设置 too.
  { en: ['Additional settings', 'More settings'], zh: ['更多设置', '其他设置'] },
  // Samsung.
  { en: ['Advanced features'], zh: ['高级功能'] },
  // Xiaomi.
  { en: ['Special features'], zh: ['特色功能'] },
  { en: ['About phone', 'About device', 'About tablet'], zh: ['关于手机', '关于设备', '关于平板电脑', '关于本机'] },
  // Xiaomi.
  { en: ['My device'], zh: ['我的设备'] },
  { en: ['Emergency information'], zh: ['急救信息'] },
];

/** Settings: network and connections. */
const SETTINGS_NETWORK: readonly GlossaryEntry[] = [
  { en: ['Wi-Fi'], zh: ['WLAN', '无线局域网', '无线网络'] },
  { en: ['Bluetooth'], zh: ['蓝牙'] },
  { en: ['Internet'], zh: ['互联网'] },
  { en: ['Network', 'Networks'], zh: ['网络'] },
  { en: ['Airplane mode', 'Flight mode', 'Aeroplane mode'], zh: ['飞行模式'] },
  { en: ['Mobile network', 'Mobile networks', 'Cellular network'], zh: ['移动网络', '蜂窝网络'] },
  // Xiaomi.
  { en: ['SIM cards & mobile networks'], zh: ['双卡与移动网络'] },
  { en: ['SIMs', 'SIM card', 'SIM cards', 'SIM'], zh: ['SIM 卡'] },
  { en: ['Mobile data', 'Cellular data'], zh: ['移动数据'] },
  { en: ['Data usage'], zh: ['流量使用情况'] },
  { en: ['Roaming'], zh: ['漫游'] },
  { en: ['Data roaming'], zh: ['数据漫游'] },
  { en: ['Calls & SMS'], zh: ['通话和短信'] },
  { en: ['Wi-Fi calling'], zh: ['WLAN 通话'] },
  { en: ['Preferred network type'], zh: ['首选网络类型'] },
  { en: ['Access Point Names', 'APN'], zh: ['接入点名称 (APN)', '接入点名称', 'APN'] },
  { en: ['Automatically select network'], zh: ['自动选择网络'] },
  { en: ['Hotspot & tethering', 'Hotspot and tethering', 'Mobile Hotspot and Tethering'], zh: ['热点和网络共享', '移动热点和网络共享'] },
  { en: ['Hotspot', 'Wi-Fi hotspot', 'Mobile hotspot', 'Personal hotspot', 'Portable hotspot'], zh: ['热点', 'WLAN 热点', '移动热点', '个人热点', '便携式热点'] },
  { en: ['Hotspot name'], zh: ['热点名称'] },
  { en: ['Hotspot password'], zh: ['热点密码'] },
  { en: ['USB tethering'], zh: ['USB 网络共享'] },
  { en: ['Bluetooth tethering'], zh: ['蓝牙网络共享'] },
  { en: ['Data Saver'], zh: ['流量节省程序'] },
  { en: ['VPN'], zh: ['VPN'] },
  { en: ['Private DNS'], zh: ['私人 DNS'] },
  { en: ['Ethernet'], zh: ['以太网'] },
  { en: ['Adaptive connectivity'], zh: ['自适应连接'] },
  { en: ['Wi-Fi preferences'], zh: ['WLAN 偏好设置'] },
  { en: ['Saved networks'], zh: ['已保存的网络'] },
  { en: ['Add network'], zh: ['添加网络'] },
  { en: ['Network details'], zh: ['网络详情'] },
  // Wi‑Fi's Forget; Bluetooth's "Forget" is worded per device and is left to the screen.
  { en: ['Forget'], zh: ['取消保存'] },
  { en: ['Connect'], zh: ['连接'] },
  { en: ['Disconnect'], zh: ['断开连接'] },
  { en: ['Pair'], zh: ['配对'] },
  { en: ['Pair new device'], zh: ['与新设备配对'] },
  { en: ['Previously connected devices'], zh: ['之前连接的设备'] },
  { en: ['Connection preferences'], zh: ['连接偏好设置'] },
  { en: ['Files received via Bluetooth'], zh: ['通过蓝牙接收的文件'] },
  { en: ['NFC'], zh: ['NFC'] },
  // AOSP Settings says 投射, the Quick Settings tile 投放; Xiaomi and Huawei 投屏.
  { en: ['Cast', 'Screen cast', 'Screen mirroring'], zh: ['投射', '投放', '投屏', '无线投屏'] },
  { en: ['Printing', 'Print'], zh: ['打印'] },
  { en: ['Default print service'], zh: ['默认打印服务'] },
  { en: ['USB'], zh: ['USB'] },
  { en: ['USB preferences'], zh: ['USB 偏好设置'] },
  { en: ['File transfer'], zh: ['文件传输'] },
  { en: ['No data transfer'], zh: ['不传输数据'] },
];

/** Settings: display, sound, notifications and apps. */
const SETTINGS_DEVICE: readonly GlossaryEntry[] = [
  { en: ['Brightness', 'Brightness level'], zh: ['亮度'] },
  // AOSP 自动调节亮度; Samsung 自适应亮度; Xiaomi 自动亮度.
  { en: ['Adaptive brightness', 'Auto brightness', 'Automatic brightness'], zh: ['自动调节亮度', '自适应亮度', '自动亮度'] },
  { en: ['Dark theme', 'Dark mode'], zh: ['深色主题', '深色模式'] },
  // Samsung "Eye comfort shield", Xiaomi "Reading mode", Huawei "Eye comfort": the same blue-light filter.
  { en: ['Night Light', 'Eye comfort shield', 'Reading mode', 'Eye comfort'], zh: ['护眼模式'] },
  { en: ['Night mode'], zh: ['夜间模式'] },
  { en: ['Font size'], zh: ['字体大小', '字号'] },
  { en: ['Display size'], zh: ['显示大小'] },
  { en: ['Display size and text'], zh: ['显示大小和文字'] },
  // Xiaomi and Huawei name it 休眠 ("Sleep"); older Xiaomi 自动锁屏.
  { en: ['Screen timeout', 'Sleep'], zh: ['屏幕超时', '休眠', '自动锁屏'] },
  { en: ['Auto-rotate screen', 'Auto-rotate'], zh: ['自动旋转屏幕', '自动旋转'] },
  { en: ['Screen saver'], zh: ['屏保', '屏幕保护程序'] },
  { en: ['Lock screen'], zh: ['锁定屏幕', '锁屏', '锁屏界面'] },
  { en: ['Home screen'], zh: ['主屏幕', '桌面', '主屏'] },
  { en: ['Screen resolution'], zh: ['屏幕分辨率'] },
  { en: ['Refresh rate', 'Screen refresh rate'], zh: ['屏幕刷新率', '刷新率'] },
  { en: ['Colors', 'Color'], zh: ['颜色'] },
  { en: ['Status bar'], zh: ['状态栏'] },
  { en: ['Control center', 'Control centre'], zh: ['控制中心'] },
  { en: ['Quick Settings'], zh: ['快捷设置'] },
  { en: ['Volume'], zh: ['音量'] },
  { en: ['Media volume'], zh: ['媒体音量'] },
  { en: ['Call volume'], zh: ['通话音量'] },
  { en: ['Ring volume', 'Ringtone volume'], zh: ['铃声音量'] },
  { en: ['Ring & notification volume'], zh: ['铃声和通知音量'] },
  { en: ['Notification volume'], zh: ['通知音量'] },
  { en: ['Alarm volume'], zh: ['闹钟音量'] },
  { en: ['Do Not Disturb', 'DND'], zh: ['勿扰模式', '勿扰', '免打扰'] },
  { en: ['Silent mode'], zh: ['静音模式'] },
  { en: ['Phone ringtone'], zh: ['手机铃声'] },
  { en: ['Default notification sound', 'Notification sound'], zh: ['默认通知提示音', '通知提示音', '通知铃声'] },
  { en: ['Default alarm sound', 'Alarm sound'], zh: ['默认闹钟提示音', '闹钟提示音', '闹钟铃声'] },
  { en: ['Touch sounds'], zh: ['触摸提示音'] },
  { en: ['Screen locking sound'], zh: ['屏幕锁定提示音'] },
  { en: ['Dial pad tones', 'Keypad tones'], zh: ['拨号键盘提示音'] },
  { en: ['Live Caption'], zh: ['实时字幕'] },
  { en: ['App notifications'], zh: ['应用通知'] },
  { en: ['Notification history'], zh: ['通知历史记录'] },
  { en: ['Conversations', 'Conversation'], zh: ['对话'] },
  { en: ['Bubbles'], zh: ['对话泡'] },
  { en: ['Notifications on lock screen'], zh: ['锁定屏幕上的通知'] },
  { en: ['Notification dots'], zh: ['通知圆点'] },
  { en: ['Wireless emergency alerts'], zh: ['无线紧急警报'] },
  { en: ['All apps'], zh: ['所有应用', '全部应用'] },
  { en: ['App info', 'App details'], zh: ['应用信息', '应用详情'] },
  { en: ['Default apps'], zh: ['默认应用', '默认应用程序'] },
  { en: ['Force stop'], zh: ['强行停止', '强制停止'] },
  { en: ['Clear cache'], zh: ['清除缓存'] },
  { en: ['Clear storage'], zh: ['清除存储空间'] },
  { en: ['Clear data'], zh: ['清除数据'] },
  { en: ['Storage & cache'], zh: ['存储和缓存'] },
  { en: ['Mobile data & Wi-Fi'], zh: ['移动数据和 WLAN'] },
  { en: ['Screen time'], zh: ['屏幕使用时间'] },
  { en: ['Open by default'], zh: ['默认打开'] },
  { en: ['Permissions', 'Permission'], zh: ['权限'] },
  { en: ['App permissions'], zh: ['应用权限'] },
  { en: ['Permission manager'], zh: ['权限管理器', '权限管理'] },
  { en: ['Unused apps'], zh: ['未使用的应用', '闲置应用'] },
  { en: ['Special app access'], zh: ['特殊应用权限'] },
  { en: ['Install unknown apps'], zh: ['安装未知应用'] },
  { en: ['Display over other apps'], zh: ['显示在其他应用的上层'] },
  { en: ['Modify system settings'], zh: ['修改系统设置'] },
  { en: ['Device admin apps'], zh: ['设备管理应用'] },
  { en: ['All files access'], zh: ['所有文件访问权限'] },
  { en: ['Notification access'], zh: ['通知使用权'] },
  { en: ['Usage access'], zh: ['使用情况访问权限'] },
  { en: ['Picture-in-picture'], zh: ['画中画'] },
  { en: ['Alarms & reminders'], zh: ['闹钟和提醒'] },
  { en: ['Battery usage'], zh: ['电池用量'] },
  { en: ['Battery Saver', 'Power saving mode', 'Power saving'], zh: ['省电模式'] },
  { en: ['Adaptive Battery'], zh: ['自适应电池'] },
  { en: ['Battery percentage'], zh: ['电池电量百分比', '电量百分比'] },
  { en: ['Free up space'], zh: ['释放空间'] },
  { en: ['Internal storage'], zh: ['内部存储空间', '内部存储'] },
  { en: ['Trash', 'Recycle bin', 'Bin'], zh: ['回收站', '垃圾桶'] },
  { en: ['Recently deleted'], zh: ['最近删除'] },
];

/** Settings: security, privacy, location, accessibility and system. */
const SETTINGS_SYSTEM: readonly GlossaryEntry[] = [
  { en: ['Screen lock', 'Screen lock type'], zh: ['屏幕锁定', '屏幕锁定方式'] },
  { en: ['Fingerprint'], zh: ['指纹'] },
  { en: ['Fingerprint Unlock'], zh: ['指纹解锁'] },
  { en: ['Face Unlock', 'Face recognition'], zh: ['人脸解锁', '面部解锁', '人脸识别'] },
  { en: ['PIN'], zh: ['PIN 码'] },
  { en: ['Pattern'], zh: ['图案'] },
  { en: ['Find My Device'], zh: ['查找我的设备'] },
  { en: ['Encryption & credentials'], zh: ['加密与凭据'] },
  { en: ['App pinning'], zh: ['固定应用'] },
  { en: ['Security update'], zh: ['安全更新'] },
  { en: ['Google Play system update'], zh: ['Google Play 系统更新'] },
  { en: ['Privacy dashboard'], zh: ['隐私信息中心'] },
  { en: ['Show passwords'], zh: ['显示密码'] },
  { en: ['Camera access'], zh: ['摄像头使用权限', '相机使用权限'] },
  { en: ['Microphone access', 'Mic access'], zh: ['麦克风使用权限'] },
  { en: ['Microphone', 'Mic'], zh: ['麦克风'] },
  { en: ['Files and media'], zh: ['文件和媒体'] },
  { en: ['Photos and videos'], zh: ['照片和视频'] },
  { en: ['Music and audio'], zh: ['音乐和音频'] },
  { en: ['Nearby devices'], zh: ['附近的设备'] },
  { en: ['Physical activity'], zh: ['身体活动'] },
  { en: ['Body sensors'], zh: ['身体传感器'] },
  { en: ['Use location'], zh: ['使用位置信息'] },
  { en: ['Location services'], zh: ['位置信息服务', '定位服务'] },
  { en: ['Wi-Fi scanning'], zh: ['WLAN 扫描'] },
  { en: ['Bluetooth scanning'], zh: ['蓝牙扫描'] },
  { en: ['TalkBack'], zh: ['TalkBack'] },
  { en: ['Select to Speak'], zh: ['随选朗读'] },
  { en: ['Magnification'], zh: ['放大功能'] },
  { en: ['Color correction'], zh: ['色彩校正'] },
  { en: ['Color inversion'], zh: ['颜色反转'] },
  { en: ['Remove animations'], zh: ['移除动画'] },
  { en: ['Accessibility menu'], zh: ['无障碍功能菜单'] },
  { en: ['Switch Access'], zh: ['开关控制'] },
  { en: ['Languages & input', 'Language & input', 'Languages and input'], zh: ['语言和输入法', '语言与输入法'] },
  { en: ['Languages', 'Language', 'System languages'], zh: ['语言', '系统语言'] },
  { en: ['Keyboard', 'Keyboards'], zh: ['键盘'] },
  { en: ['On-screen keyboard'], zh: ['屏幕键盘'] },
  { en: ['Virtual keyboard'], zh: ['虚拟键盘'] },
  { en: ['Physical keyboard'], zh: ['实体键盘'] },
  { en: ['Spell checker'], zh: ['拼写检查工具'] },
  { en: ['Pointer speed'], zh: ['指针速度'] },
  { en: ['Text-to-speech output', 'Text-to-speech'], zh: ['文字转语音 (TTS) 输出', '文字转语音'] },
  { en: ['Gestures'], zh: ['手势'] },
  { en: ['System navigation', 'Navigation mode'], zh: ['系统导航', '导航模式'] },
  { en: ['Gesture navigation'], zh: ['手势导航'] },
  { en: ['3-button navigation'], zh: ['“三按钮”导航', '三键导航'] },
  { en: ['2-button navigation'], zh: ['“双按钮”导航'] },
  { en: ['Date & time', 'Date and time'], zh: ['日期和时间', '日期与时间'] },
  { en: ['Time zone'], zh: ['时区'] },
  { en: ['Set time automatically'], zh: ['自动设置时间'] },
  { en: ['Set time zone automatically'], zh: ['自动设置时区'] },
  { en: ['Use 24-hour format'], zh: ['使用 24 小时制'] },
  { en: ['Backup'], zh: ['备份'] },
  { en: ['Reset options'], zh: ['重置选项'] },
  { en: ['Reset Wi-Fi, mobile & Bluetooth'], zh: ['重置 WLAN、移动数据网络和蓝牙设置'] },
  { en: ['Reset app preferences'], zh: ['重置应用偏好设置'] },
  { en: ['Erase all data (factory reset)'], zh: ['清除所有数据（恢复出厂设置）'] },
  { en: ['Factory reset', 'Factory data reset'], zh: ['恢复出厂设置'] },
  { en: ['Multiple users', 'Users'], zh: ['多用户', '用户'] },
  { en: ['Developer options'], zh: ['开发者选项', '开发人员选项'] },
  { en: ['USB debugging'], zh: ['USB 调试'] },
  { en: ['Wireless debugging'], zh: ['无线调试'] },
  { en: ['Stay awake'], zh: ['不锁定屏幕'] },
  { en: ['OEM unlocking'], zh: ['OEM 解锁'] },
  { en: ['Show taps'], zh: ['显示点按操作反馈'] },
  { en: ['Pointer location'], zh: ['指针位置'] },
  { en: ['Window animation scale'], zh: ['窗口动画缩放'] },
  { en: ['Transition animation scale'], zh: ['过渡动画缩放'] },
  { en: ['Animator duration scale'], zh: ['动画程序时长缩放'] },
  { en: ["Don't keep activities"], zh: ['不保留活动'] },
  { en: ['Background process limit'], zh: ['后台进程限制'] },
  // Samsung says "Software update"; AOSP and most vendors "System update".
  { en: ['System update', 'Software update'], zh: ['系统更新', '软件更新'] },
  { en: ['Check for updates'], zh: ['检查更新'] },
  { en: ['Device name'], zh: ['设备名称'] },
  { en: ['Model', 'Model number'], zh: ['型号'] },
  { en: ['Android version'], zh: ['Android 版本', '安卓版本'] },
  { en: ['Build number'], zh: ['版本号'] },
  { en: ['Baseband version'], zh: ['基带版本'] },
  { en: ['Kernel version'], zh: ['内核版本'] },
  { en: ['IP address'], zh: ['IP 地址'] },
  { en: ['SIM status'], zh: ['SIM 卡状态'] },
  { en: ['Legal information'], zh: ['法律信息'] },
  { en: ['Search settings'], zh: ['搜索设置'] },
];

/** Dialog, permission, onboarding and toolbar buttons. */
const BUTTONS: readonly GlossaryEntry[] = [
  { en: ['OK', 'Okay'], zh: ['确定', '好', '好的'] },
  { en: ['Cancel'], zh: ['取消'] },
  { en: ['Confirm'], zh: ['确认'] },
  { en: ['Allow'], zh: ['允许'] },
  // Permission dialogs say 拒绝 for Deny; other dialogs use it for Decline, Reject, Refuse. A phone
  // call's Decline is 拒接 ("Decline call").
  { en: ['Deny', 'Decline', 'Reject', 'Refuse'], zh: ['拒绝'] },
  { en: ["Don't allow", 'Do not allow'], zh: ['不允许'] },
  { en: ["Don't allow anyway"], zh: ['仍然不允许'] },
  // Android 10 "Allow only while using the app", 11+ "While using the app"; Xiaomi 仅在使用中允许.
  { en: ['While using the app', 'Allow only while using the app', 'Only while using the app', 'Only while using app'], zh: ['仅在使用该应用时允许', '仅限使用应用时', '仅在使用中允许'] },
  { en: ['Only this time'], zh: ['仅限这一次'] },
  { en: ['Allow all the time', 'Always allow'], zh: ['始终允许', '一律允许'] },
  { en: ['Ask every time'], zh: ['每次都询问'] },
  { en: ["Don't ask again"], zh: ['不再询问', '不要再询问', '下次不再询问'] },
  { en: ["Don't show again", 'Do not show again'], zh: ['不再显示', '不再提示'] },
  { en: ['Go to Settings', 'Open settings'], zh: ['转到“设置”', '前往设置', '去设置'] },
  // The ANR ("isn't responding") and crash dialogs.
  { en: ['Close app'], zh: ['关闭应用'] },
  { en: ['Wait'], zh: ['等待'] },
  { en: ['Open app again'], zh: ['重新打开应用'] },
  // AOSP translates both Close and Dismiss as 关闭 (a dialog, an alarm, a card).
  { en: ['Close', 'Dismiss'], zh: ['关闭'] },
  { en: ['Ignore'], zh: ['忽略'] },
  { en: ['Skip', 'Skip for now'], zh: ['跳过', '暂时跳过'] },
  { en: ['Got it', 'OK, got it', 'I got it'], zh: ['知道了', '我知道了'] },
  { en: ['I understand'], zh: ['我明白'] },
  { en: ['Next'], zh: ['下一步', '下一个'] },
  { en: ['Previous'], zh: ['上一步', '上一个'] },
  // The on-screen Back button; the direction "back" (a rear camera) is a different term.
  { en: ['Back', 'Go back', 'Navigate back'], zh: ['返回'] },
  { en: ['Navigate up'], zh: ['转到上一层级'] },
  { en: ['Done', 'Finish'], zh: ['完成'] },
  // 继续 is also the stopwatch's Resume (see SHARED_GLOSSARY_TERMS).
  { en: ['Continue'], zh: ['继续'] },
  { en: ['Start'], zh: ['开始', '启动'] },
  { en: ['Get started'], zh: ['开始使用'] },
  { en: ['Not now', 'Later', 'Maybe later'], zh: ['以后再说', '稍后再说', '稍后', '暂不'] },
  { en: ['No thanks'], zh: ['不用了', '不，谢谢', '不用，谢谢'] },
  { en: ['Accept'], zh: ['接受'] },
  { en: ['Accept & continue', 'Accept and continue'], zh: ['接受并继续'] },
  { en: ['Agree', 'I agree'], zh: ['同意', '我同意'] },
  { en: ['Agree and continue', 'Agree & continue'], zh: ['同意并继续'] },
  { en: ['Disagree'], zh: ['不同意'] },
  { en: ['Yes'], zh: ['是', '是的'] },
  { en: ['No'], zh: ['否'] },
  { en: ['Save'], zh: ['保存'] },
  { en: ['Discard'], zh: ['舍弃', '放弃'] },
  { en: ['Delete'], zh: ['删除'] },
  { en: ['Remove'], zh: ['移除'] },
  { en: ['Edit'], zh: ['编辑', '修改'] },
  { en: ['Add'], zh: ['添加', '新增'] },
  { en: ['New'], zh: ['新建'] },
  { en: ['Create'], zh: ['创建'] },
  { en: ['Share'], zh: ['分享', '共享'] },
  { en: ['Send'], zh: ['发送'] },
  { en: ['Submit'], zh: ['提交'] },
  { en: ['Search'], zh: ['搜索'] },
  { en: ['Find'], zh: ['查找'] },
  { en: ['Voice search'], zh: ['语音搜索'] },
  { en: ['Clear query', 'Clear search'], zh: ['清除查询', '清除搜索内容'] },
  { en: ['Retry', 'Try again'], zh: ['重试', '再试一次'] },
  { en: ['Update', 'Update now'], zh: ['更新', '立即更新'] },
  { en: ['Update all'], zh: ['全部更新'] },
  { en: ['Install'], zh: ['安装'] },
  { en: ['Uninstall'], zh: ['卸载'] },
  // 打开 as a label is the Open button; the verb "turn on" is the goal parser's business.
  { en: ['Open'], zh: ['打开'] },
  { en: ['Turn on'], zh: ['开启'] },
  { en: ['Enable'], zh: ['启用'] },
  { en: ['Disable'], zh: ['停用', '禁用'] },
  { en: ['Sign in', 'Log in'], zh: ['登录'] },
  { en: ['Sign up', 'Register', 'Create account'], zh: ['注册', '创建账号', '创建帐号'] },
  { en: ['Log out', 'Sign out'], zh: ['退出登录', '登出', '退出账号'] },
  { en: ['Exit', 'Quit'], zh: ['退出'] },
  { en: ['More options'], zh: ['更多选项'] },
  { en: ['More'], zh: ['更多'] },
  { en: ['Menu'], zh: ['菜单'] },
  { en: ['Open navigation drawer'], zh: ['打开抽屉式导航栏'] },
  { en: ['Close navigation drawer'], zh: ['关闭抽屉式导航栏'] },
  { en: ['Expand'], zh: ['展开'] },
  { en: ['Collapse'], zh: ['收起'] },
  { en: ['Copy'], zh: ['复制'] },
  { en: ['Paste'], zh: ['粘贴'] },
  { en: ['Cut'], zh: ['剪切'] },
  { en: ['Select all'], zh: ['全选'] },
  { en: ['Select'], zh: ['选择'] },
  { en: ['Undo'], zh: ['撤消', '撤销'] },
  { en: ['Redo'], zh: ['重做'] },
  { en: ['Refresh', 'Reload'], zh: ['刷新', '重新加载'] },
  { en: ['Clear'], zh: ['清除'] },
  { en: ['Clear all'], zh: ['全部清除', '清除全部'] },
  { en: ['Rename'], zh: ['重命名'] },
  { en: ['Move'], zh: ['移动'] },
  { en: ['Move to'], zh: ['移至', '移动到'] },
  { en: ['Copy to'], zh: ['复制到'] },
  { en: ['Restore'], zh: ['恢复', '还原'] },
  { en: ['Preview'], zh: ['预览'] },
  { en: ['Sort by'], zh: ['排序方式'] },
  { en: ['Filter'], zh: ['筛选', '过滤'] },
  { en: ['Details'], zh: ['详细信息', '详情'] },
  { en: ['Options'], zh: ['选项'] },
  { en: ['Learn more'], zh: ['了解详情', '了解更多'] },
  { en: ['Help'], zh: ['帮助'] },
  { en: ['Feedback'], zh: ['反馈'] },
  { en: ['Help & feedback', 'Help and feedback'], zh: ['帮助和反馈', '帮助与反馈'] },
  { en: ['Send feedback'], zh: ['发送反馈'] },
  { en: ['Manage'], zh: ['管理'] },
  { en: ['Block'], zh: ['屏蔽', '阻止'] },
  { en: ['Unblock'], zh: ['取消屏蔽'] },
  { en: ['Upload'], zh: ['上传'] },
  { en: ['Power off', 'Shut down'], zh: ['关机'] },
  { en: ['Restart', 'Reboot'], zh: ['重启', '重新启动'] },
  { en: ['Emergency call'], zh: ['紧急呼救', '紧急电话'] },
  { en: ['Unlock'], zh: ['解锁'] },
  { en: ['Screenshot'], zh: ['屏幕截图', '截屏', '截图'] },
  { en: ['Screen record', 'Screen recorder'], zh: ['屏幕录制', '录屏'] },
  { en: ['Split screen'], zh: ['分屏'] },
  { en: ['Recent apps'], zh: ['最近用过的应用', '最近任务'] },
  { en: ['Widgets'], zh: ['微件', '小部件', '小组件'] },
  { en: ['Add to home screen'], zh: ['添加到主屏幕'] },
];

/** Clock: alarm, world clock, timer, stopwatch, bedtime, and the days and half-days they show. */
const CLOCK: readonly GlossaryEntry[] = [
  { en: ['Alarm', 'Alarms'], zh: ['闹钟'] },
  { en: ['Add alarm', 'New alarm', 'Create alarm'], zh: ['添加闹钟', '新建闹钟', '新闹钟'] },
  { en: ['World clock'], zh: ['世界时钟'] },
  // AOSP DeskClock 定时器; Google Clock, Samsung and Huawei 计时器.
  { en: ['Timer', 'Timers'], zh: ['计时器', '定时器'] },
  { en: ['Add timer', 'New timer'], zh: ['添加计时器', '添加定时器', '新定时器'] },
  { en: ['Stopwatch'], zh: ['秒表'] },
  { en: ['Bedtime'], zh: ['就寝时间'] },
  { en: ['Repeat'], zh: ['重复'] },
  // AOSP DeskClock says 暂停 for Snooze, which is Pause's term and is left out here.
  { en: ['Snooze'], zh: ['稍后提醒', '稍后再提醒', '贪睡'] },
  { en: ['Label', 'Labels'], zh: ['标签'] },
  { en: ['Vibrate', 'Vibration'], zh: ['振动', '震动'] },
  { en: ['Ringtone', 'Ringtones'], zh: ['铃声'] },
  { en: ['Cities', 'City'], zh: ['城市'] },
  { en: ['Start week on', 'Week starts on'], zh: ['一周的第一天', '一周起始日'] },
  { en: ['Pause'], zh: ['暂停'] },
  { en: ['Stop'], zh: ['停止'] },
  // Stopwatch and timer Reset (the Settings page "Reset options" is its own entry).
  { en: ['Reset'], zh: ['重置'] },
  { en: ['Lap'], zh: ['计次', '一圈'] },
  // 继续 is also Continue (see SHARED_GLOSSARY_TERMS); 恢复 is Restore.
  { en: ['Resume'], zh: ['继续'] },
  { en: ['Every day', 'Daily'], zh: ['每天'] },
  { en: ['Weekdays'], zh: ['工作日'] },
  { en: ['Weekends'], zh: ['周末'] },
  { en: ['Today'], zh: ['今天'] },
  { en: ['Tomorrow'], zh: ['明天'] },
  { en: ['Yesterday'], zh: ['昨天'] },
  { en: ['Never'], zh: ['永不', '从不'] },
  { en: ['Always'], zh: ['始终', '总是'] },
  { en: ['AM'], zh: ['上午'] },
  { en: ['PM'], zh: ['下午'] },
  { en: ['Monday', 'Mon'], zh: ['星期一', '周一'] },
  { en: ['Tuesday', 'Tue', 'Tues'], zh: ['星期二', '周二'] },
  { en: ['Wednesday', 'Wed'], zh: ['星期三', '周三'] },
  { en: ['Thursday', 'Thu', 'Thurs'], zh: ['星期四', '周四'] },
  { en: ['Friday', 'Fri'], zh: ['星期五', '周五'] },
  { en: ['Saturday', 'Sat'], zh: ['星期六', '周六'] },
  { en: ['Sunday', 'Sun'], zh: ['星期日', '星期天', '周日'] },
  { en: ['Hours', 'Hour'], zh: ['小时'] },
  { en: ['Minutes', 'Minute'], zh: ['分钟'] },
  { en: ['Seconds', 'Second'], zh: ['秒', '秒钟'] },
];

/** Phone (dialer, in-call screen) and Contacts. */
const PHONE: readonly GlossaryEntry[] = [
  { en: ['Call'], zh: ['拨打电话', '呼叫', '拨打'] },
  { en: ['Dial'], zh: ['拨号'] },
  { en: ['Keypad', 'Dialpad'], zh: ['拨号键盘', '拨号盘'] },
  // The dialer tab "Recents" is the call history.
  { en: ['Call history', 'Recents', 'Call log', 'Call logs', 'Recent calls'], zh: ['通话记录', '最近通话'] },
  { en: ['Favorites', 'Favourites'], zh: ['收藏', '收藏夹'] },
  { en: ['Voicemail'], zh: ['语音信箱', '语音邮件'] },
  { en: ['End call', 'Hang up'], zh: ['结束通话', '挂断'] },
  { en: ['Answer'], zh: ['接听'] },
  { en: ['Decline call', 'Reject call'], zh: ['拒接', '拒接来电'] },
  { en: ['Mute'], zh: ['静音'] },
  { en: ['Unmute'], zh: ['取消静音'] },
  { en: ['Speaker', 'Speakerphone'], zh: ['免提', '扬声器'] },
  { en: ['Hold'], zh: ['保持'] },
  { en: ['Add call'], zh: ['添加通话'] },
  { en: ['Merge calls', 'Merge'], zh: ['合并通话', '合并'] },
  { en: ['Swap calls', 'Swap'], zh: ['切换通话'] },
  { en: ['Video call'], zh: ['视频通话'] },
  { en: ['Call back'], zh: ['回拨'] },
  { en: ['Missed call', 'Missed calls'], zh: ['未接电话', '未接来电'] },
  { en: ['Incoming call'], zh: ['来电'] },
  { en: ['Blocked numbers'], zh: ['已屏蔽的号码'] },
  { en: ['Block number'], zh: ['屏蔽号码'] },
  { en: ['Speed dial'], zh: ['快速拨号'] },
  { en: ['Add contact', 'Add to contacts'], zh: ['添加联系人', '添加到通讯录'] },
  { en: ['Create new contact', 'New contact', 'Create contact'], zh: ['新建联系人', '创建新联系人', '新增联系人'] },
  { en: ['Edit contact'], zh: ['编辑联系人', '修改联系人'] },
  { en: ['Delete contact'], zh: ['删除联系人'] },
  { en: ['Search contacts'], zh: ['搜索联系人'] },
  { en: ['First name'], zh: ['名字'] },
  { en: ['Last name', 'Surname'], zh: ['姓氏'] },
  { en: ['Name'], zh: ['姓名', '名称'] },
  { en: ['Nickname'], zh: ['昵称'] },
  { en: ['Company'], zh: ['公司'] },
  { en: ['Address'], zh: ['地址'] },
  { en: ['Birthday'], zh: ['生日'] },
  { en: ['Website'], zh: ['网站'] },
  { en: ['Note'], zh: ['备注'] },
  { en: ['Import'], zh: ['导入'] },
  { en: ['Export'], zh: ['导出'] },
];

/** Messages and email. */
const MESSAGES: readonly GlossaryEntry[] = [
  { en: ['New message'], zh: ['新信息', '新消息', '新短信'] },
  { en: ['Start chat', 'New conversation'], zh: ['发起聊天', '新对话'] },
  { en: ['Send message'], zh: ['发送信息', '发送短信', '发送消息'] },
  { en: ['Attach', 'Add attachment', 'Attachment'], zh: ['添加附件', '附件'] },
  { en: ['Reply'], zh: ['回复'] },
  { en: ['Reply all'], zh: ['全部回复'] },
  // A message's Forward; the browser's is "Go forward".
  { en: ['Forward'], zh: ['转发'] },
  { en: ['Archive'], zh: ['归档'] },
  { en: ['Mark as read'], zh: ['标为已读'] },
  { en: ['Emoji'], zh: ['表情符号'] },
  { en: ['Compose'], zh: ['写邮件'] },
  { en: ['Inbox'], zh: ['收件箱'] },
  { en: ['Sent'], zh: ['已发送'] },
  { en: ['Drafts', 'Draft'], zh: ['草稿', '草稿箱'] },
  { en: ['Spam'], zh: ['垃圾邮件'] },
  { en: ['To', 'Recipient'], zh: ['收件人'] },
  { en: ['Cc'], zh: ['抄送'] },
];

/** Camera, gallery, browser, files, stores, music and calendar. */
const MEDIA_AND_APPS: readonly GlossaryEntry[] = [
  // The camera mode; the gallery app's "Photos" is in Gallery.
  { en: ['Photo'], zh: ['拍照', '照片'] },
  { en: ['Video', 'Videos'], zh: ['视频', '录像'] },
  { en: ['Shutter', 'Shutter button'], zh: ['快门', '快门按钮'] },
  { en: ['Switch camera', 'Flip camera'], zh: ['切换摄像头', '翻转摄像头'] },
  { en: ['Front camera'], zh: ['前置摄像头'] },
  { en: ['Rear camera', 'Back camera'], zh: ['后置摄像头'] },
  { en: ['Flash'], zh: ['闪光灯'] },
  { en: ['Portrait'], zh: ['人像'] },
  { en: ['Night'], zh: ['夜景'] },
  { en: ['Panorama'], zh: ['全景'] },
  { en: ['Slow motion'], zh: ['慢动作'] },
  { en: ['Time-lapse'], zh: ['延时摄影'] },
  { en: ['Pro'], zh: ['专业'] },
  { en: ['Selfie'], zh: ['自拍'] },
  { en: ['Zoom'], zh: ['缩放', '变焦'] },
  { en: ['Filters', 'Filter effects'], zh: ['滤镜'] },
  { en: ['Grid'], zh: ['网格'] },
  { en: ['QR code'], zh: ['二维码'] },
  { en: ['Scan'], zh: ['扫描'] },
  { en: ['Record'], zh: ['录制'] },
  { en: ['Recordings'], zh: ['录音', '录音文件'] },
  { en: ['Crop'], zh: ['裁剪'] },
  { en: ['Rotate'], zh: ['旋转'] },
  { en: ['Set as wallpaper'], zh: ['设为壁纸'] },
  { en: ['Slideshow'], zh: ['幻灯片'] },
  { en: ['Images', 'Pictures'], zh: ['图片'] },
  { en: ['Documents'], zh: ['文档'] },
  { en: ['Audio'], zh: ['音频'] },
  { en: ['Recent'], zh: ['最近'] },
  { en: ['New folder'], zh: ['新建文件夹'] },
  { en: ['Compress'], zh: ['压缩'] },
  { en: ['Extract'], zh: ['解压'] },
  { en: ['Grid view'], zh: ['网格视图'] },
  { en: ['List view'], zh: ['列表视图'] },
  { en: ['Show hidden files'], zh: ['显示隐藏的文件'] },
  { en: ['New tab'], zh: ['新标签页'] },
  { en: ['Incognito tab'], zh: ['无痕式标签页', '隐身标签页'] },
  { en: ['Tabs'], zh: ['标签页'] },
  { en: ['Bookmarks', 'Bookmark'], zh: ['书签'] },
  { en: ['History'], zh: ['历史记录'] },
  { en: ['Go forward'], zh: ['前进'] },
  { en: ['Address bar'], zh: ['地址栏'] },
  { en: ['Search or type web address', 'Search or type URL'], zh: ['搜索或输入网址'] },
  { en: ['Find in page'], zh: ['在页面内查找', '在网页中查找'] },
  { en: ['Desktop site'], zh: ['桌面版网站'] },
  { en: ['Apps & games'], zh: ['应用和游戏'] },
  { en: ['Games'], zh: ['游戏'] },
  { en: ['Manage apps & device'], zh: ['管理应用和设备'] },
  { en: ['Play'], zh: ['播放'] },
  { en: ['Next track', 'Skip to next'], zh: ['下一首', '下一曲'] },
  { en: ['Previous track', 'Skip to previous'], zh: ['上一首', '上一曲'] },
  { en: ['Shuffle'], zh: ['随机播放'] },
  { en: ['Playlists', 'Playlist'], zh: ['播放列表', '歌单'] },
  { en: ['Songs', 'Song'], zh: ['歌曲'] },
  { en: ['Artists', 'Artist'], zh: ['艺术家', '歌手'] },
  { en: ['Lyrics'], zh: ['歌词'] },
  { en: ['Now playing'], zh: ['正在播放'] },
  { en: ['Event', 'Events'], zh: ['活动', '日程'] },
  { en: ['New event'], zh: ['新建活动', '新建日程'] },
  { en: ['All day'], zh: ['全天'] },
  { en: ['Reminder', 'Reminders'], zh: ['提醒'] },
  { en: ['Week'], zh: ['周'] },
  { en: ['Month'], zh: ['月'] },
  { en: ['Year'], zh: ['年'] },
];

/** Common nouns and app tabs. */
const COMMON: readonly GlossaryEntry[] = [
  { en: ['Home'], zh: ['首页', '主页'] },
  { en: ['Me'], zh: ['我', '我的'] },
  { en: ['Profile'], zh: ['个人资料', '个人主页'] },
  { en: ['Password'], zh: ['密码'] },
  { en: ['Username'], zh: ['用户名'] },
  { en: ['Forgot password'], zh: ['忘记密码'] },
  { en: ['Verification code'], zh: ['验证码'] },
  { en: ['Phone number', 'Mobile number'], zh: ['电话号码', '手机号', '手机号码'] },
  { en: ['Avatar', 'Profile picture'], zh: ['头像'] },
  { en: ['About'], zh: ['关于'] },
  { en: ['Version'], zh: ['版本'] },
  { en: ['Privacy policy'], zh: ['隐私政策', '隐私权政策'] },
  { en: ['Terms of service', 'Terms of Use'], zh: ['服务条款', '使用条款'] },
  { en: ['User agreement'], zh: ['用户协议'] },
  { en: ['Contact us'], zh: ['联系我们'] },
  { en: ['Date'], zh: ['日期'] },
  { en: ['Time'], zh: ['时间'] },
  { en: ['Discover'], zh: ['发现'] },
  { en: ['Explore'], zh: ['探索'] },
  { en: ['Follow'], zh: ['关注'] },
  { en: ['Like'], zh: ['点赞', '赞'] },
  { en: ['Comment', 'Comments'], zh: ['评论'] },
  { en: ['Subscribe'], zh: ['订阅'] },
  { en: ['Cart', 'Shopping cart'], zh: ['购物车'] },
  { en: ['Orders', 'My orders'], zh: ['订单', '我的订单'] },
];

/** Common Android UI terms, English ↔ Simplified Chinese. */
export const UI_GLOSSARY: readonly GlossaryEntry[] = [
  ...APPS,
  ...SETTINGS_PAGES,
  ...SETTINGS_NETWORK,
  ...SETTINGS_DEVICE,
  ...SETTINGS_SYSTEM,
  ...BUTTONS,
  ...CLOCK,
  ...PHONE,
  ...MESSAGES,
  ...MEDIA_AND_APPS,
  ...COMMON,
];

/**
 * The terms deliberately kept in more than one entry, because the phone shows the same word for
 * both: 继续 is AOSP's "Continue" (dialogs, onboarding) and DeskClock's "Resume" (stopwatch,
 * timer). A goal saying 继续 on an English screen may mean either button; a screen rarely shows
 * both. Every other term names exactly one entry.
 */
export const SHARED_GLOSSARY_TERMS: readonly string[] = ['继续'];

const BY_TERM: ReadonlyMap<string, readonly GlossaryEntry[]> = (() => {
  const map = new Map<string, GlossaryEntry[]>();
  for (const entry of UI_GLOSSARY) {
    for (const term of [...entry.en, ...entry.zh]) {
      const key = compactLabel(term);
      if (key === '') continue;
      const list = map.get(key) ?? [];
      if (!list.includes(entry)) list.push(entry);
      map.set(key, list);
    }
  }
  return map;
})();

/**
 * The glossary entries that have a term equal to `label` under {@link compactLabel}, in glossary
 * order: none for an unknown label, one for almost every known one, more only for a term of
 * {@link SHARED_GLOSSARY_TERMS}. Never throws.
 */
export function glossaryEntriesFor(label: string): readonly GlossaryEntry[] {
  return BY_TERM.get(compactLabel(label)) ?? [];
}

/**
 * The labels that name the same thing as `label`: `label` itself first, then every term (both
 * languages) of each glossary entry that has a term equal to it under {@link compactLabel}, without
 * duplicates. A label the glossary does not know gives `[label]`.
 */
export function equivalentLabels(label: string): string[] {
  const out = [label];
  const seen = new Set([compactLabel(label)]);
  for (const entry of glossaryEntriesFor(label)) {
    for (const term of [...entry.en, ...entry.zh]) {
      const key = compactLabel(term);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(term);
    }
  }
  return out;
}
