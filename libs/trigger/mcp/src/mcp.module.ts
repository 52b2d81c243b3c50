import { Module, type DynamicModule } from '@nestjs/common';
import { McpHttpEndpoint } from './mcp-http.endpoint';
import { McpServerFactory } from './mcp-server.factory';
import { DEFAULT_MCP_OPTIONS, MCP_OPTIONS, type McpOptions } from './mcp.options';
import { McpRegistryTools } from './registry-tools';
import { ResourceUpdates } from './resource-updates';

export interface McpModuleOptions {
  options?: Partial<McpOptions>;
  imports?: DynamicModule['imports'];
}

/**
 * The MCP face as a Nest module. The host provides `DeviceControlService` (`@mobileclaw/case-device-control`),
 * `TaskService` (`@mobileclaw/case-tasks`) and `MobileClawService`, then mounts the routes before any
 * body parser: `app.use(app.get(McpHttpEndpoint).middleware)`. With a `ToolRegistry` provider
 * (`@mobileclaw/case-tools`, e.g. global), the registry's tools the `mcp` caller may call are served
 * next to the face's own (native sources excepted; a name the face uses stays the face's).
 */
@Module({})
export class McpModule {
  static forRoot({ options = {}, imports = [] }: McpModuleOptions = {}): DynamicModule {
    const merged: McpOptions = { ...DEFAULT_MCP_OPTIONS, ...options, image: { ...DEFAULT_MCP_OPTIONS.image, ...options.image } };
    return {
      module: McpModule,
      imports,
      providers: [{ provide: MCP_OPTIONS, useValue: merged }, ResourceUpdates, McpRegistryTools, McpServerFactory, McpHttpEndpoint],
      exports: [McpHttpEndpoint, McpServerFactory],
    };
  }
}
