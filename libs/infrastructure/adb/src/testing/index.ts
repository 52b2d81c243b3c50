/** Test doubles for tests of the ADB bridge: a scripted device shell and real-format device outputs. */
export { ScriptedAdbShell, type ScriptedReply, type ShellCall } from './scripted-shell';
export * from './device-outputs';
