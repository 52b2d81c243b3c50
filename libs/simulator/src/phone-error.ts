/** The simulated phone refuses commands with the phone side's typed error (see `@mobileclaw/phone-link`). */
export { PhoneError, type PhoneErrorCode } from '@mobileclaw/phone-link';
