/**
 * `@mobileclaw/client`: call a MobileClaw gateway from a business system (Node 20, no framework
 * needed; a Nest module for Nest apps).
 */
export const CLIENT_PACKAGE = '@mobileclaw/client';
