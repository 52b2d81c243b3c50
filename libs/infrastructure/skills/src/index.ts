/**
 * @mobileclaw/skills-folder: SKILL.md skills (the Agent Skills format) as a `ToolSource` of execution
 * mode `SKILL` ({@link SkillsFolderSource}, {@link createSkillsFolderSource}): discovery from ordered
 * roots, validation with reported issues, eligibility from declared requirements, a debounced watcher,
 * and the body served only on activation.
 */
export * from './skills-folder-source';
export * from './create-skills-folder-source';
export * from './skill-discovery';
export * from './skill-issue';
export * from './skill-file';
export * from './skill-requirements';
export * from './skill-body';
export * from './learned-skill-file';
export * from './workspace-learned-skill-store';
