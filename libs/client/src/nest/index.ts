/**
 * `@mobileclaw/client/nest`: the client as a Nest module, for apps built on Nest (`@nestjs/common` 11
 * is then a peer dependency; the root entry does not import Nest).
 */
export { MobileClawClientModule } from './mobileclaw-client.module';
export { MOBILECLAW_CLIENT_OPTIONS, type MobileClawClientModuleOptions } from './mobileclaw-client.module-definition';
