// Numbers as the summary and progress bar print them: one writing for the command and bulk/ (the report's page).
export { thousands } from '../bulk/base/numbers.js';
