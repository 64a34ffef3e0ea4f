import type { Rule } from 'eslint';

/** A server folder's layer and the folders it may import (`everything` for the composition root). */
export type FolderRule = { layer: string; allowed: Set<string> | 'everything' };

/** docs/decisions.md's "Layout" table: folder → its rule. */
export function readLayoutTable(markdown?: string): Map<string, FolderRule>;
export const serverLayers: Rule.RuleModule;
declare const plugin: { rules: { 'server-layers': Rule.RuleModule } };
export default plugin;
