/** @mobileclaw/ui-hierarchy: importer of recorded Android UI hierarchies (Appium page source, `uiautomator dump`). */
export * from './ui-tree-xml';
