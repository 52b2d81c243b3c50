export { RuleBasedPlanner } from './rule-based-planner';
export { parseGoal, SUPPORTED_GOAL_FORMS } from './goal-parser';
export { describeGoal, describeIntent, type GoalIntent } from './goal-intent';
export { KNOWN_APPS, findKnownApp, type KnownApp } from './app-catalog';
export { KNOWN_SETTINGS, findKnownSetting, type KnownSetting } from './setting-catalog';
