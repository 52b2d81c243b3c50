/**
 * What the gateway keeps (tasks, goals, screenshots, memories, learned skills) is private to its
 * owner: every folder it makes in its data directory has this mode, owner only.
 */
export const PRIVATE_DIRECTORY_MODE = 0o700;
/** Mode of every file the gateway makes in its data directory: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;
