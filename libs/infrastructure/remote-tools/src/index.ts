/**
 * @mobileclaw/remote-tool-sources: remote tools as `ToolSource`s —
 * {@link HttpToolCatalogSource} (mode `REMOTE_PROXY`, source kind `catalog`): an HTTP tool catalog
 * plus an invoke endpoint in the wire shape of OpenClaw's `/tools/invoke`; {@link A2aAgentToolSource}
 * (mode `AGENT_SESSION`, source kind `agent`): a remote A2A agent whose skills are tools, each call a
 * delegation in its own context. Both list their last tools unavailable while the remote is down.
 */
export * from './polled-tool-source';
export * from './http-tool-catalog-source';
export * from './tool-catalog';
export * from './tool-invoke-answer';
export * from './a2a-agent-tool-source';
export { delegationInstruction, toolCallShown, type DelegationRecord } from './a2a-delegation';
export { ResponseTooLargeError } from './bounded-fetch';
