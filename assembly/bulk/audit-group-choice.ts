// The audit's group choice for all of a site's crawlers in one call
// (src/bulk/audit/crawler-groups.ts): group-choice.ts's, where the choice is
// decided, exported from here so that it is the whole core's only (the
// library's core leaves assembly/bulk/ out).
export { groupsApplyingEach } from "../parse/group-choice";
