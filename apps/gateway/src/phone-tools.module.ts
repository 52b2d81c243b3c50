import { Global, Module } from '@nestjs/common';
import { DeviceToolRequests } from '@mobileclaw/domain';
import { RegistryDeviceToolRequests, ToolRegistry } from '@mobileclaw/case-tools';

/**
 * Phones as callers of the tool registry (wire protocol v1 `request` frames `tools.catalog` and
 * `tools.invoke`, docs/protocol.md §7): provides {@link DeviceToolRequests} over the {@link ToolRegistry}
 * in scope, each phone the caller `phone:<deviceId>` (policy `phone:*`). Global, so that the device
 * module's lifecycle finds it and hands it to the hub; needs a global `ToolRegistry` provider.
 */
@Global()
@Module({
  providers: [{ provide: DeviceToolRequests, inject: [ToolRegistry], useFactory: (registry: ToolRegistry) => new RegistryDeviceToolRequests(registry) }],
  exports: [DeviceToolRequests],
})
export class PhoneToolRequestsModule {}
