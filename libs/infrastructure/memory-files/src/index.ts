export * from './markdown-memory-files';
// The document format and the paths, for another store of the same documents (PostgreSQL).
export { checkedInstant, formatFileTitle, formatMemorySection, lineEndingOf, parseMemorySections, withoutMemorySections, memoryContentHash, type MemoryFileFacts, type ParsedMemorySection } from './memory-section-format';
export { isCalendarDay, memoryFilePath, memorySectionAt, parseMemoryFilePath, scopeFolder, type MemoryFileLocation } from './memory-file-path';
